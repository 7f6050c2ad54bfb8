/**
 * Participate ('participate.'): the steps from visitor to artist, a link to the principles popup (The Ground), and
 * the way to registration. The words live in copy/participate.ts.
 */
import { useState } from 'react';
import { Link } from '#client/router/react.tsx';
import { useCurrentUser } from '#client/app/current-user.ts';
import { usePageTitle } from '#client/app/page-title.ts';
import { PARTICIPATE_LEAD, PARTICIPATE_STEPS } from './copy/participate.ts';
import { THE_GROUND } from './copy/principles.ts';
import { PrinciplesDialog } from './principles-dialog.tsx';

export function ParticipatePage() {
  usePageTitle('participate.');
  const { user } = useCurrentUser();
  const [principlesOpen, setPrinciplesOpen] = useState(false);
  return (
    <section className="page page--wide participate">
      <header className="participate__header">
        <p className="eyebrow">free for every artist</p>
        <h1 className="page__title">participate.</h1>
        <p className="page__lead">{PARTICIPATE_LEAD}</p>
      </header>

      <ol className="steps">
        {PARTICIPATE_STEPS.map((step, i) => (
          <li key={step.title} className="step" data-testid="participate-step">
            <span className="step__number" aria-hidden="true">
              {i + 1}
            </span>
            <h2 className="step__title">{step.title}</h2>
            <p className="step__body">{step.body}</p>
          </li>
        ))}
      </ol>

      <div className="participate__ground">
        <div>
          <p className="eyebrow">before you begin</p>
          <h2 className="participate__ground-title">stand on the ground.</h2>
          <p>
            Everything on the tree rests on four principles:{' '}
            {THE_GROUND.map((p, i) => (
              <span key={p.name}>
                <strong>{p.name}</strong>
                {p.rule && ` (${p.rule})`}
                {i < THE_GROUND.length - 2 ? ', ' : i === THE_GROUND.length - 2 ? ' and ' : '.'}
              </span>
            ))}
          </p>
        </div>
        <div className="participate__actions">
          <button
            type="button"
            className="button button--quiet"
            onClick={() => setPrinciplesOpen(true)}
            data-testid="open-principles"
          >
            read the principles
          </button>
          {user ? (
            <Link to="/observe" className="button">
              find a square.
            </Link>
          ) : (
            <Link to="/registration" className="button">
              register.
            </Link>
          )}
        </div>
      </div>

      <PrinciplesDialog open={principlesOpen} onClose={() => setPrinciplesOpen(false)} />
    </section>
  );
}
