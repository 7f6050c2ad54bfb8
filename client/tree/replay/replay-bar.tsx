/**
 * The growth replay's controls while it runs (decision 023): play and pause, the scrubber with the day it shows, Save
 * as video (decision 049) and the way back to live. Loaded with the replay (replay-parts.ts), not with the tree.
 */
import { useCallback, useState } from 'react';
import { formatDate } from '#client/app/dates.ts';
import { moduleLoader } from '#client/app/module-loader.ts';
import { useLoaded } from '#client/app/use-loaded.ts';
import type { TreeEngine } from '../engine/tree-engine.ts';
import type { GrowthReplay } from './growth-replay.ts';
import { endOfDay, writeDay } from './replay-address.ts';
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

/**
 * The replay's controls while it runs: play or pause, the scrubber with the day it shows, Save as video (where the
 * browser records WebM: video-support.ts) and the way back to live. While a video is recorded it plays the replay:
 * play and the scrubber wait.
 */
export function ReplayBar({
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
