/**
 * The growth replay's controls on the tree page (decision 023): a button that starts it, then play/pause, a scrubber
 * with the date it shows, a way to save the growth as a video (decision 049) and a way back to the live tree.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { DAY_MS } from '#shared/durations.ts';
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import { DAY_OUT_OF_REACH, formatReplayDay, NOT_A_DAY, parseReplayDay, TREE_PAGE_PATH } from '#shared/tree/tree-url.ts';
import type { TreeEngine } from '../engine/tree-engine.ts';
import { GrowthReplay } from './growth-replay.ts';
import { fetchTreeHistory, historySpan } from './history-request.ts';
import { formatDate } from '#client/app/dates.ts';
import { moduleLoader } from '#client/app/module-loader.ts';
import { useLoaded } from '#client/app/use-loaded.ts';
import { COVERS_TREE } from '../use-covered-insets.ts';
import type { ReplayVideoProps } from './replay-video.tsx';
import { videoRecordingType } from './video-support.ts';

/**
 * The video panel and its recorder come only when a viewer opens the panel (decision 049): never part of the tree's
 * first code, nor loaded in the background for everyone.
 */
const videoPanel = moduleLoader(() => import('./replay-video.tsx').then((module) => module.ReplayVideo));

function VideoPanel(props: ReplayVideoProps) {
  const Panel = useLoaded(videoPanel);
  return Panel ? (
    <Panel {...props} />
  ) : (
    <p className="tree-video" aria-busy="true">
      Loading…
    </p>
  );
}

/** While playing, the controls follow the clock this often at most (the canvas follows every frame). */
const UI_EVERY_MS = 100;

/** The last millisecond of a moment's UTC day: what `?at=` of that day shows, so a paused view and its link agree. */
function endOfDay(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS + DAY_MS - 1;
}

/**
 * The scrubber's far end: the timeline's end (now) rounded up to a whole step from its start, since a range input only
 * takes whole steps and must reach the end, where the live tree shows (the replay clamps the time back to now).
 */
function scrubberEnd(start: number, end: number, step: number): number {
  return start + Math.ceil((end - start) / step) * step;
}

/** Writes the replay's day into the address in place (null: the live tree, no `at`). */
function writeDay(time: number | null): void {
  if (window.location.pathname !== TREE_PAGE_PATH) return;
  const search = formatReplayDay(window.location.search, time);
  if (search !== window.location.search)
    window.history.replaceState(
      window.history.state,
      '',
      `${window.location.pathname}${search}${window.location.hash}`,
    );
}

type Mode = 'off' | 'loading' | 'on';

/**
 * `?at=YYYY-MM-DD` opens the replay paused at the end of that day (UTC); scrubbing or pausing writes the day shown back
 * into the address, so the link can be shared. A day the history does not reach, or one that is not a day, leaves the
 * live tree as it is, says so, and leaves the address.
 */
export function ReplayControl({ token, engine }: { token: string; engine: TreeEngine | null }) {
  const [addressDay] = useState(() => parseReplayDay(window.location.search));
  const [mode, setMode] = useState<Mode>('off');
  const [time, setTime] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [span, setSpan] = useState({ start: 0, end: 0, step: 1 });
  const [problem, setProblem] = useState<string | null>(() =>
    addressDay === null && new URLSearchParams(window.location.search).has('at') ? NOT_A_DAY : null,
  );
  useEffect(() => {
    if (problem === NOT_A_DAY) writeDay(null);
  }, [problem]);
  const history = useRef<TreeHistoryWire | null>(null);
  const replay = useRef<GrowthReplay | null>(null);
  const shownAt = useRef(0);

  const start = useCallback(
    async (at: number | null, autoplay: boolean) => {
      if (!engine || replay.current) return;
      setMode('loading');
      setProblem(null);
      performance.mark('tree:replay-asked');
      try {
        history.current ??= await fetchTreeHistory(token);
        performance.mark('tree:replay-history');
      } catch (error) {
        setMode('off');
        if (at === null) setProblem(error instanceof Error ? error.message : 'The history could not be loaded.');
        return;
      }
      const reach = historySpan(history.current);
      const outside = at !== null && (!reach || at < reach.start || at - DAY_MS + 1 > Date.now());
      if (!reach || outside || !engine.liveCells || engine.replaying) {
        setMode('off');
        if (outside) {
          writeDay(null);
          setProblem(DAY_OUT_OF_REACH);
        } else if (!reach) setProblem('No piece has been published yet: there is no growth to replay.');
        return;
      }
      const created = new GrowthReplay(engine, history.current, at ?? reach.start, {
        time(ms) {
          const now = performance.now();
          if (created.playing && now - shownAt.current < UI_EVERY_MS) return;
          shownAt.current = now;
          setTime(ms);
        },
        playing(on) {
          setPlaying(on);
          // Paused, the tree rests at the end of its day, as the link written for it opens it.
          if (!on) {
            created.seek(endOfDay(created.time));
            writeDay(created.time);
          }
          setTime(created.time);
        },
      });
      replay.current = created;
      const { step } = history.current;
      const { start: first, end: last } = created.timeline;
      setSpan({ start: first, end: scrubberEnd(first, last, step), step });
      setTime(created.time);
      setMode('on');
      if (autoplay) created.play();
    },
    [engine, token],
  );

  const exit = useCallback(() => {
    replay.current?.exit();
    replay.current = null;
    setMode('off');
    setPlaying(false);
    writeDay(null);
  }, []);

  // The address names a day: open the replay there once the engine shows the live tree.
  const openedFromAddress = useRef(false);
  useEffect(() => {
    if (!engine || addressDay === null || openedFromAddress.current) return;
    openedFromAddress.current = true;
    void start(addressDay, false);
  }, [engine, addressDay, start]);

  // A new engine (or none) ends a replay of the old one.
  useEffect(
    () => () => {
      replay.current?.exit();
      replay.current = null;
      setMode('off');
    },
    [engine],
  );

  if (mode !== 'on') {
    return (
      <div className="tree-replay tree-replay--off" {...COVERS_TREE}>
        <button
          type="button"
          className="tree-replay__start"
          onClick={() => void start(null, true)}
          disabled={!engine || mode === 'loading'}
        >
          {mode === 'loading' ? 'Loading the history…' : 'Replay growth'}
        </button>
        {problem && (
          <p className="tree-replay__problem" role="status">
            {problem}
          </p>
        )}
      </div>
    );
  }

  // A div in the same place as the button's above, so it stays the element the covered insets' observer watches.
  return (
    <div className="tree-replay" role="group" aria-label="Growth replay" data-testid="tree-replay" {...COVERS_TREE}>
      <ReplayBar
        engine={engine}
        replay={replay.current}
        playing={playing}
        span={span}
        time={time}
        onTime={setTime}
        onExit={exit}
      />
    </div>
  );
}

/**
 * The replay's controls while it runs: play or pause, the scrubber with the day it shows, Save as video (where the
 * browser records WebM: video-support.ts) and the way back to live. While a video is recorded it plays the replay:
 * play and the scrubber wait.
 */
function ReplayBar({
  engine,
  replay,
  playing,
  span,
  time,
  onTime,
  onExit,
}: {
  engine: TreeEngine | null;
  replay: GrowthReplay | null;
  playing: boolean;
  span: { start: number; end: number; step: number };
  time: number;
  onTime: (time: number) => void;
  onExit: () => void;
}) {
  const day = formatDate(time, 'utcDay');
  const [videoType] = useState(videoRecordingType);
  const [videoOpen, setVideoOpen] = useState(false);
  const [recording, setRecording] = useState(false);
  /** After a recording: the replay paused at the day it showed before, as a pause leaves it. */
  const putBack = useCallback(
    (before: number) => {
      if (!replay) return;
      replay.seek(endOfDay(before));
      onTime(replay.time);
      writeDay(replay.time);
    },
    [replay, onTime],
  );
  return (
    <>
      <button
        type="button"
        className="tree-replay__button"
        disabled={recording}
        onClick={() => (playing ? replay?.pause() : replay?.play())}
        aria-label={playing ? 'Pause' : 'Play'}
        title={playing ? 'Pause' : 'Play'}
      >
        <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span>
      </button>
      <input
        type="range"
        className="tree-replay__scrubber"
        min={span.start}
        max={span.end}
        step={span.step}
        value={Math.min(span.end, Math.max(span.start, time))}
        aria-label="Replay date"
        aria-valuetext={day}
        disabled={recording}
        onChange={(event) => {
          const current = replay;
          if (!current) return;
          const value = Number(event.target.value);
          // Paused, the scrubber moves by whole days (see endOfDay); playing, it moves freely.
          current.seek(current.playing ? value : endOfDay(value));
          onTime(current.time);
          if (!current.playing) writeDay(current.time);
        }}
      />
      <output className="tree-replay__date" data-testid="tree-replay-date">
        {day}
      </output>
      {videoType && (
        <button
          type="button"
          className="tree-replay__exit"
          aria-expanded={videoOpen}
          aria-controls={videoOpen ? 'tree-video' : undefined}
          disabled={recording}
          onClick={() => setVideoOpen((open) => !open)}
        >
          Save as video
        </button>
      )}
      <button type="button" className="tree-replay__exit" onClick={onExit}>
        Back to live
      </button>
      {videoOpen && videoType && engine && replay && (
        <VideoPanel
          engine={engine}
          replay={replay}
          mimeType={videoType}
          onRecording={setRecording}
          onPutBack={putBack}
          onClose={() => setVideoOpen(false)}
        />
      )}
    </>
  );
}
