/**
 * The growth replay's control on the tree page (decision 023): the button that starts it, then its bar (play/pause, a
 * scrubber with the date it shows, a way to save the growth as a video (decision 049) and a way back to the live
 * tree). The replay itself comes after the tree's first frame (replay-parts.ts).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { TreeHistoryWire } from '#shared/tree/history.ts';
import { DAY_MS } from '#shared/durations.ts';
import { DAY_OUT_OF_REACH, NOT_A_DAY, parseReplayDay } from '#shared/tree/tree-url.ts';
import { laterLoader } from '#client/app/module-loader.ts';
import type { TreeEngine } from '../engine/tree-engine.ts';
import { COVERS_TREE } from '../use-covered-insets.ts';
import type { GrowthReplay } from './growth-replay.ts';
import { endOfDay, writeDay } from './replay-address.ts';

/** The replay's history, clock and bar: loaded when it is asked for, or in the background after the first frame. */
const replayParts = laterLoader(() => import('./replay-parts.ts'));

/** While playing, the controls follow the clock this often at most (the canvas follows every frame). */
const UI_EVERY_MS = 100;

/**
 * The scrubber's far end: the timeline's end (now) rounded up to a whole step from its start, since a range input only
 * takes whole steps and must reach the end, where the live tree shows (the replay clamps the time back to now).
 */
function scrubberEnd(start: number, end: number, step: number): number {
  return start + Math.ceil((end - start) / step) * step;
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
      let parts: Awaited<ReturnType<typeof replayParts.start>>;
      try {
        parts = await replayParts.start();
      } catch {
        // The loader keeps its answer: only a new page asks for the module again.
        setMode('off');
        setProblem('The replay could not be loaded. Reload the page to try again.');
        return;
      }
      try {
        history.current ??= await parts.fetchTreeHistory(token);
        performance.mark('tree:replay-history');
      } catch (error) {
        setMode('off');
        if (at === null) setProblem(error instanceof Error ? error.message : 'The history could not be loaded.');
        return;
      }
      const reach = parts.historySpan(history.current);
      const outside = at !== null && (!reach || at < reach.start || at - DAY_MS + 1 > Date.now());
      if (!reach || outside || !engine.liveCells || engine.replaying) {
        setMode('off');
        if (outside) {
          writeDay(null);
          setProblem(DAY_OUT_OF_REACH);
        } else if (!reach) setProblem('No piece has been published yet: there is no growth to replay.');
        return;
      }
      const created = new parts.GrowthReplay(engine, history.current, at ?? reach.start, {
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

  // Here once the replay is on: start() waited for it.
  const { ReplayBar } = replayParts.current()!;
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
