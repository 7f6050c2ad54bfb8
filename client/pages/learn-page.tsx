/**
 * Learn ('learn.'): four slides (OVERVIEW, METAPHOR, CONNECTION, INTERACTION) with a tab menu and previous/next
 * arrows; the previous arrow is hidden on the first slide, the next on the last. The current slide is local state;
 * arrow keys move between tabs.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from '#client/router/react.tsx';
import { usePageTitle } from '#client/app/page-title.ts';
import { LEARN_SLIDES } from './copy/learn.ts';
import { SlideArt } from './learn/slide-art.tsx';

export function LearnPage() {
  usePageTitle('learn.');
  const [index, setIndex] = useState(0);
  const baseId = useId();
  const tabsRef = useRef<HTMLDivElement>(null);
  const slide = LEARN_SLIDES[index]!;
  const last = LEARN_SLIDES.length - 1;

  const go = (next: number, focusTab = false) => {
    const clamped = Math.max(0, Math.min(last, next));
    setIndex(clamped);
    if (focusTab) tabsRef.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[clamped]?.focus();
  };

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: last };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    go(target, true);
  };

  return (
    <section className="page page--wide learn">
      <header className="learn__header">
        <p className="eyebrow">how the gallery works</p>
        <h1 className="page__title">learn.</h1>
      </header>

      {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus -- a tablist with a roving tabindex: its tabs take the focus */}
      <div
        className="learn__tabs"
        role="tablist"
        aria-label="Learn about Gallery Tree"
        ref={tabsRef}
        onKeyDown={onTabKey}
      >
        {LEARN_SLIDES.map((s, i) => (
          <button
            key={s.key}
            type="button"
            role="tab"
            id={`${baseId}-tab-${s.key}`}
            aria-selected={i === index}
            aria-controls={`${baseId}-panel`}
            tabIndex={i === index ? 0 : -1}
            className="learn__tab"
            onClick={() => go(i)}
          >
            <span className="learn__tab-number" aria-hidden="true">
              {String(i + 1).padStart(2, '0')}
            </span>
            {s.tab}
          </button>
        ))}
      </div>

      <div
        className="learn__slide"
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${slide.key}`}
        data-slide={slide.key}
        key={slide.key}
      >
        <div className="learn__art">
          <SlideArt slide={slide.key} />
        </div>
        <div className="learn__text">
          <p className="learn__count">
            {index + 1} / {LEARN_SLIDES.length}
          </p>
          <h2 className="learn__heading">{slide.heading}</h2>
          {slide.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          {index === last && (
            <p className="learn__next-step">
              <Link to="/observe" className="button">
                observe the tree.
              </Link>
            </p>
          )}
        </div>
      </div>

      <div className="learn__arrows">
        {index > 0 ? (
          <button
            type="button"
            className="pill pill--button arrow-button"
            data-testid="learn-previous"
            onClick={() => go(index - 1)}
          >
            <span aria-hidden="true">←</span> {LEARN_SLIDES[index - 1]!.tab.toLowerCase()}
            <span className="visually-hidden">, previous slide</span>
          </button>
        ) : (
          <span />
        )}
        {index < last ? (
          <button
            type="button"
            className="pill pill--button arrow-button arrow-button--next"
            data-testid="learn-next"
            onClick={() => go(index + 1)}
          >
            {LEARN_SLIDES[index + 1]!.tab.toLowerCase()}
            <span className="visually-hidden">, next slide</span> <span aria-hidden="true">→</span>
          </button>
        ) : (
          <span />
        )}
      </div>
    </section>
  );
}
