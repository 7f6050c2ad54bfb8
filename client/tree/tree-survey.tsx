/**
 * The tree in words beside the canvas, for whoever cannot see it (decision 029): the bands, the view's published pieces
 * as links, a button that says it aloud. It follows the view once the camera rests, so its cost follows the screen.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from '#client/router/react.tsx';
import type { TreeEngine } from './engine/tree-engine.ts';
import type { Signal } from '#client/app/signal.ts';
import {
  bandText,
  pieceText,
  viewSummaryText,
  type BandSurvey,
  type SurveyPiece,
  type ViewSurvey,
} from './engine/survey.ts';
import { cellPath } from '#shared/paths.ts';

/** How long the view rests before the survey follows it. */
const SURVEY_SETTLE_MS = 400;
/**
 * How long What is here?'s words stay in the status once said: a screen reader takes them when they appear, and left
 * there they would be the view's sentence a second time, just above the same sentence under "In view".
 */
const SAID_HOLD_MS = 3000;
/** The survey's words while there is no tree to tell, said once for the whole survey. */
const STILL_LOADING = 'The tree is still loading.';
/** Pieces listed at most; the rest are counted ("and 12 more"). */
export const SURVEY_MAX_PIECES = 60;

export interface TreeSurveyProps {
  engine: TreeEngine | null;
  signal: Signal;
  /** The viewer's own squares' tokens, marked "(yours)". */
  ownTokens: ReadonlySet<string>;
  /** A piece's link is followed: the page remembers it, to come back to it. */
  onOpenPiece: (piece: SurveyPiece) => void;
}

export function TreeSurvey({ engine, signal, ownTokens, onOpenPiece }: TreeSurveyProps) {
  const headingId = useId();
  const [view, setView] = useState<ViewSurvey | null>(null);
  const [bands, setBands] = useState<BandSurvey[] | null>(null);
  const [said, setSaid] = useState('');
  const sayTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const look = useCallback(() => {
    if (!engine) return;
    setView(engine.surveyView(SURVEY_MAX_PIECES));
    setBands(engine.surveyBands());
  }, [engine]);

  // Once the camera (or the tree) rests, never during a pan: the page emits on every move.
  useEffect(() => {
    look();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const unsubscribe = signal.subscribe(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        look();
      }, SURVEY_SETTLE_MS);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [look, signal]);
  useEffect(() => () => void (sayTimer.current && clearTimeout(sayTimer.current)), []);

  /**
   * Says what the view holds now, through the polite status below: emptied first so the same words are said again,
   * and emptied again once said, so that the survey holds the view's sentence once, under "In view".
   */
  const sayWhatIsHere = () => {
    const now = engine?.surveyView(SURVEY_MAX_PIECES) ?? null;
    if (now) setView(now);
    setSaid('');
    if (sayTimer.current) clearTimeout(sayTimer.current);
    sayTimer.current = setTimeout(() => {
      setSaid(now ? viewSummaryText(now) : STILL_LOADING);
      sayTimer.current = setTimeout(() => setSaid(''), SAID_HOLD_MS);
    }, 60);
  };

  const more = view ? view.piecesTotal - view.pieces.length : 0;
  return (
    <section className="tree-survey" aria-labelledby={headingId} data-testid="tree-survey">
      <h2 id={headingId} className="tree-survey__title">
        The tree in words
      </h2>
      <p className="tree-survey__lead">What the tree&apos;s view shows, kept up to date as the view moves.</p>
      <button type="button" className="button button--quiet tree-survey__say" onClick={sayWhatIsHere}>
        What is here?
      </button>
      <p className="tree-survey__said" role="status" data-testid="tree-survey-said">
        {said}
      </p>

      {!view && !bands && <p>{STILL_LOADING}</p>}
      {view && (
        <>
          <h3 className="tree-survey__heading">In view</h3>
          <p data-testid="tree-survey-view">{viewSummaryText(view)}</p>
          {view.pieces.length > 0 && (
            <ul className="tree-survey__pieces" aria-label="Published pieces in view" data-testid="tree-survey-pieces">
              {view.pieces.map((piece) => {
                const text = pieceText(piece, piece.token !== null && ownTokens.has(piece.token));
                return (
                  <li key={`${piece.row},${piece.column}`}>
                    {piece.token ? (
                      <Link to={cellPath(piece.token, 'details')} onClick={() => onOpenPiece(piece)}>
                        {text}
                      </Link>
                    ) : (
                      <span>{text}</span>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          {more > 0 && (
            <p data-testid="tree-survey-more">
              And {more.toLocaleString('en')} more published {more === 1 ? 'piece' : 'pieces'} in view: zoom in, or move
              the view, to list them.
            </p>
          )}
        </>
      )}
      {bands && (
        <>
          <h3 className="tree-survey__heading">Bands of the tree</h3>
          <ul className="tree-survey__bands" data-testid="tree-survey-bands">
            {bands.map((band) => (
              <li key={band.name}>{bandText(band)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
