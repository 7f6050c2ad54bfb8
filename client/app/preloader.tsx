/**
 * The preloader: our mark assembling itself square by square, played once (decision 007; preloader-mode.ts).
 * While it runs, <html data-preloader> says "playing"; afterwards "done" (or "skipped"), for tests and styles.
 */
import { useEffect, useState, type AnimationEvent } from 'react';
import { TIMINGS } from '#shared/constants.ts';
import { LogoMark } from './logo-mark.tsx';
import { preloaderMode, type PreloaderMode } from './preloader-mode.ts';

/** The name of the closing animation in preloader.css; its end is the signal. */
const FINALE = 'preloader-finale';
/** If animationend never comes (a hidden tab, a broken stylesheet), give up waiting after this long. */
const ANIMATION_TIMEOUT_MS: Record<Exclude<PreloaderMode, 'skip'>, number> = { full: 9_000, short: 2_500 };
/** Matches the fade-out transition in preloader.css. */
const FADE_MS = 320;

type Phase = 'showing' | 'leaving' | 'gone';

function setDocumentState(state: 'playing' | 'done' | 'skipped'): void {
  document.documentElement.dataset.preloader = state;
}

/** True once the window's load event has fired and the fonts are ready. */
function useAssetsLoaded(): boolean {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    let cancelled = false;
    const windowLoaded =
      document.readyState === 'complete'
        ? Promise.resolve()
        : new Promise<void>((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
    const fontsReady = document.fonts?.ready.then(() => undefined) ?? Promise.resolve();
    Promise.all([windowLoaded, fontsReady]).then(
      () => !cancelled && setLoaded(true),
      () => !cancelled && setLoaded(true),
    );
    return () => {
      cancelled = true;
    };
  }, []);
  return loaded;
}

/**
 * Goes away TIMINGS.preloaderHideMs after all three are done: the page's assets have loaded (window load and fonts),
 * the animation has finished (its last animation's animationend), and initialisation is done (the current user is
 * known). A click or a key press skips the animation.
 */
export function Preloader({ initialised }: { initialised: boolean }) {
  const [mode] = useState(preloaderMode);
  const assetsLoaded = useAssetsLoaded();
  const [animation, setAnimation] = useState<'playing' | 'done' | 'skipped'>(mode === 'skip' ? 'skipped' : 'playing');
  const animationDone = animation !== 'playing';
  const [phase, setPhase] = useState<Phase>(mode === 'skip' ? 'gone' : 'showing');
  const finish = (how: 'done' | 'skipped') => setAnimation((current) => (current === 'playing' ? how : current));

  useEffect(() => {
    setDocumentState(mode === 'skip' ? 'skipped' : 'playing');
  }, [mode]);

  // Skippable: any click (handled on the overlay) or key press.
  useEffect(() => {
    if (phase !== 'showing') return;
    const skip = () => finish('skipped');
    window.addEventListener('keydown', skip);
    return () => window.removeEventListener('keydown', skip);
  }, [phase]);

  // The safety net for a missing animationend.
  useEffect(() => {
    if (mode === 'skip' || animationDone) return;
    const timer = window.setTimeout(() => finish('done'), ANIMATION_TIMEOUT_MS[mode]);
    return () => window.clearTimeout(timer);
  }, [mode, animationDone]);

  const ready = assetsLoaded && animationDone && initialised;
  useEffect(() => {
    if (!ready || phase !== 'showing') return;
    const timer = window.setTimeout(() => setPhase('leaving'), TIMINGS.preloaderHideMs);
    return () => window.clearTimeout(timer);
  }, [ready, phase]);

  useEffect(() => {
    if (phase !== 'leaving') return;
    setDocumentState('done');
    const timer = window.setTimeout(() => setPhase('gone'), FADE_MS);
    return () => window.clearTimeout(timer);
  }, [phase]);

  if (phase === 'gone') return null;

  const onAnimationEnd = (event: AnimationEvent<HTMLDivElement>) => {
    if (event.animationName === FINALE) finish('done');
  };

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click anywhere skips the animation; its skip button does the same for the keyboard
    <div
      className={`preloader preloader--${mode}${phase === 'leaving' ? ' is-leaving' : ''}`}
      role="status"
      aria-live="polite"
      aria-label="Gallery Tree is loading"
      data-animation={animation}
      onClick={() => finish('skipped')}
    >
      <div className="preloader__stage" onAnimationEnd={onAnimationEnd}>
        <LogoMark className="preloader__mark" animated />
        <p className="preloader__name">gallery tree.</p>
        <p className="preloader__tagline">a community gallery, one square at a time</p>
      </div>
      <p className="preloader__hint">click or press any key to skip</p>
    </div>
  );
}
