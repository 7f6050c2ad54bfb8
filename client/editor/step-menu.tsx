/**
 * The wizard's step menu (decision 011): the seven steps in order, the current one marked; a step already reached
 * can be opened from it (leaving the current step forwards still needs it to validate, which the wizard decides).
 * On a narrow screen the menu scrolls sideways and keeps the current step in view.
 */
import { useEffect, useRef } from 'react';
import { STEPS } from './editor-state.ts';

export function StepMenu({
  step,
  furthest,
  onSelect,
}: {
  step: number;
  furthest: number;
  onSelect: (step: number) => void;
}) {
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const nav = navRef.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current="step"]');
    if (nav && current) nav.scrollLeft = current.offsetLeft - (nav.clientWidth - current.offsetWidth) / 2;
  }, [step]);
  return (
    <nav ref={navRef} className="editor-steps" aria-label="Steps">
      <ol className="editor-steps__list">
        {STEPS.map((name, index) => (
          <li key={name}>
            <button
              type="button"
              className="editor-steps__step"
              aria-current={index === step ? 'step' : undefined}
              disabled={index > furthest}
              onClick={() => onSelect(index)}
              data-testid={`step-menu-${name}`}
            >
              <span className="editor-steps__number" aria-hidden="true">
                {index + 1}
              </span>
              {name}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
