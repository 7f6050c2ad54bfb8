/**
 * The replay's "Save as video" panel (decision 049): what the video shows (the view on screen or the whole tree) and
 * its length, then the recording with its progress and a way to cancel, then the file to download. A module of its
 * own with the recorder (growth-video.ts), loaded when a viewer opens the panel: the tree page's first code has only
 * the button.
 */
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { TreeEngine } from '../engine/tree-engine.ts';
import type { GrowthReplay } from './growth-replay.ts';
import { recordGrowth, VIDEO_LENGTHS, type GrowthVideo } from './growth-video.ts';
import './replay-video.css';

/**
 * The whole tree is offered while it fits in this many chunks on screen (each built and drawn every frame while the
 * tree grows): about 100,000 positions. A larger tree is recorded as the view on screen.
 */
const WHOLE_TREE_MAX_CHUNKS = 400;

type State =
  { kind: 'choose' } | { kind: 'recording'; seconds: number } | { kind: 'ready'; url: string; video: GrowthVideo };

export interface ReplayVideoProps {
  engine: TreeEngine;
  replay: GrowthReplay;
  /** The WebM type this browser records (video-support.ts). */
  mimeType: string;
  /** A recording started or ended: the replay's own controls wait meanwhile. */
  onRecording: (recording: boolean) => void;
  /** The recording ended (made, cancelled or failed): the replay goes back to the time it showed before it. */
  onPutBack: (time: number) => void;
  onClose: () => void;
}

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** Where focus goes once the step a button led to is on screen (the button pressed goes away with its step). */
type FocusTarget = 'cancel' | 'download' | 'record' | null;

interface Recording {
  state: State;
  /** What the status line says (announced politely): the recording's start and end, never each second. */
  said: string;
  focusNext: RefObject<FocusTarget>;
  record: (lengthMs: number, whole: boolean) => Promise<void>;
  cancel: () => void;
  again: () => void;
}

/** The recording's steps: choosing, recording (its seconds), the video made; cancelled when the panel goes. */
function useRecording({ engine, replay, mimeType, onRecording, onPutBack }: ReplayVideoProps): Recording {
  const [state, setState] = useState<State>({ kind: 'choose' });
  const [said, setSaid] = useState('');
  const abort = useRef<AbortController | null>(null);
  const mounted = useRef(true);
  const focusNext = useRef<FocusTarget>(null);

  // Leaving (Back to live, another page) cancels a recording under way.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      abort.current?.abort();
    };
  }, []);

  // A made video's file is given back when it is closed or another is made.
  useEffect(() => {
    if (state.kind !== 'ready') return;
    return () => URL.revokeObjectURL(state.url);
  }, [state]);

  const settle = (next: State, focus: FocusTarget, text: string) => {
    focusNext.current = focus;
    setState(next);
    setSaid(text);
  };

  const record = async (lengthMs: number, whole: boolean) => {
    const controller = new AbortController();
    abort.current = controller;
    const before = replay.time;
    settle(
      { kind: 'recording', seconds: 0 },
      'cancel',
      `Recording the growth as a video of ${lengthMs / 1000} seconds.`,
    );
    onRecording(true);
    let shown = 0;
    try {
      const video = await recordGrowth({
        engine,
        replay,
        mimeType,
        lengthMs,
        whole,
        signal: controller.signal,
        onProgress(ms) {
          const seconds = Math.floor(ms / 1000);
          if (seconds === shown || !mounted.current) return;
          shown = seconds;
          setState({ kind: 'recording', seconds });
        },
      });
      if (!mounted.current) return;
      if (!video) settle({ kind: 'choose' }, 'record', 'Recording cancelled: no video was made.');
      else
        settle(
          { kind: 'ready', url: URL.createObjectURL(video.blob), video },
          'download',
          `The video is ready to download: ${megabytes(video.blob.size)}` +
            (video.cappedAtSize ? ', stopped early at the size limit.' : '.'),
        );
    } catch (error) {
      if (!mounted.current) return;
      const reason = error instanceof Error ? error.message : String(error);
      settle({ kind: 'choose' }, 'record', `The video could not be made: ${reason}`);
    } finally {
      if (abort.current === controller) abort.current = null;
      // Unmounted, the replay has ended (Back to live): there is nothing to put back.
      if (mounted.current) {
        onRecording(false);
        onPutBack(before);
      }
    }
  };

  return {
    state,
    said,
    focusNext,
    record,
    cancel: () => abort.current?.abort(),
    again: () => settle({ kind: 'choose' }, 'record', ''),
  };
}

export function ReplayVideo(props: ReplayVideoProps) {
  const { engine, onClose } = props;
  const titleId = useId();
  const [whole, setWhole] = useState(false);
  const [lengthMs, setLengthMs] = useState<number>(VIDEO_LENGTHS[0]);
  const [wholeView] = useState(() => engine.wholeTreeView());
  const wholeFits = wholeView !== null && wholeView.chunks <= WHOLE_TREE_MAX_CHUNKS;
  const { state, said, focusNext, record, cancel, again } = useRecording(props);
  const panelRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const downloadRef = useRef<HTMLAnchorElement>(null);
  const recordRef = useRef<HTMLButtonElement>(null);
  const recording = state.kind === 'recording';

  const close = () => {
    cancel();
    onClose();
  };

  // The button pressed goes away with each step: focus goes on to the next step's control.
  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target === 'cancel') cancelRef.current?.focus();
    else if (target === 'download') downloadRef.current?.focus();
    else if (target === 'record') recordRef.current?.focus();
  }, [state.kind, focusNext]);

  // Escape cancels a recording, else closes the panel (listened to on the panel: a group takes no handlers in JSX).
  const escape = useRef(() => {});
  escape.current = recording ? cancel : close;
  useEffect(() => {
    const panel = panelRef.current;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      escape.current();
    };
    panel?.addEventListener('keydown', onKey);
    return () => panel?.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div ref={panelRef} className="tree-video" id="tree-video" role="group" aria-labelledby={titleId}>
      <p className="tree-video__title" id={titleId}>
        Save the growth as a video
      </p>
      {state.kind === 'choose' && (
        <>
          <VideoChoice
            hintId={`${titleId}-whole`}
            whole={whole && wholeFits}
            wholeFits={wholeFits}
            lengthMs={lengthMs}
            onWhole={setWhole}
            onLength={setLengthMs}
          />
          <div className="tree-video__actions">
            <button
              ref={recordRef}
              type="button"
              className="tree-video__primary"
              onClick={() => void record(lengthMs, whole && wholeFits)}
            >
              Record
            </button>
            <button type="button" onClick={close}>
              Close
            </button>
          </div>
        </>
      )}
      {state.kind === 'recording' && (
        <>
          <p className="tree-video__progress">
            Recording… {state.seconds} s of {Math.round(lengthMs / 1000)}
          </p>
          <progress max={lengthMs / 1000} value={state.seconds} aria-label="Recording" />
          <div className="tree-video__actions">
            <button ref={cancelRef} type="button" onClick={cancel}>
              Cancel
            </button>
          </div>
        </>
      )}
      {state.kind === 'ready' && (
        <>
          <p className="tree-video__made">
            WebM, {megabytes(state.video.blob.size)}, {Math.round(state.video.durationMs / 1000)} s, {state.video.width}{' '}
            × {state.video.height}
          </p>
          <div className="tree-video__actions">
            <a
              ref={downloadRef}
              className="tree-video__primary"
              href={state.url}
              download={state.video.fileName}
              data-testid="tree-video-download"
            >
              Download the video
            </a>
            <button type="button" onClick={again}>
              Record again
            </button>
            <button type="button" onClick={close}>
              Close
            </button>
          </div>
        </>
      )}
      <p className="tree-video__status" role="status">
        {said}
      </p>
    </div>
  );
}

/** What the video shows (the view on screen, or the whole tree where it is small enough) and its length. */
function VideoChoice({
  hintId,
  whole,
  wholeFits,
  lengthMs,
  onWhole,
  onLength,
}: {
  hintId: string;
  whole: boolean;
  wholeFits: boolean;
  lengthMs: number;
  onWhole: (whole: boolean) => void;
  onLength: (ms: number) => void;
}) {
  return (
    <>
      <fieldset className="tree-video__choice">
        <legend>The video shows</legend>
        <label>
          <input type="radio" name="tree-video-show" checked={!whole} onChange={() => onWhole(false)} />
          The view on screen
        </label>
        <label>
          <input
            type="radio"
            name="tree-video-show"
            checked={whole}
            disabled={!wholeFits}
            aria-describedby={wholeFits ? undefined : hintId}
            onChange={() => onWhole(true)}
          />
          The whole tree
        </label>
        {!wholeFits && <small id={hintId}>The tree is too large to show whole: the video shows the view.</small>}
      </fieldset>
      <label className="tree-video__length">
        Length{' '}
        <select value={lengthMs} onChange={(event) => onLength(Number(event.target.value))}>
          {VIDEO_LENGTHS.map((ms) => (
            <option key={ms} value={ms}>
              {ms / 1000} seconds
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
