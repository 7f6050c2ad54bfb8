/**
 * The CONFIRM step: a summary block per step, each with EDIT returning to it, the submit error (the message for the
 * server's code, then its field errors) and SUBMIT (decision 011).
 */
import type { ReactNode } from 'react';
import { AI_USE_LABELS, formatDimensions } from '#client/art/art-facts.tsx';
import type { AiUse } from '#shared/constants.ts';
import { STEPS, slotIsFilled, type StepName } from '../editor-state.ts';
import type { StepProps } from './step-props.ts';
import { ConnectionStatus } from '#shared/domain.ts';
import { titleOrUntitled } from '#shared/words.ts';

const listed = (items: readonly string[]) => (items.length > 0 ? items.join(', ') : '—');

export function ConfirmStep({ state, onEdit }: StepProps & { onEdit: (step: number) => void }) {
  const { values } = state;
  const selected = state.connections.filter((c) => c.status === ConnectionStatus.Selected);
  const block = (step: StepName, rows: [string, ReactNode][]) => (
    <section className="editor-summary" data-testid={`summary-${step}`}>
      <header className="editor-summary__header">
        <h3 className="editor-summary__title">{step}</h3>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => onEdit(STEPS.indexOf(step))}
          data-testid={`edit-${step}`}
        >
          EDIT<span className="visually-hidden"> {step.toLowerCase()}</span>
        </button>
      </header>
      <dl className="editor-summary__rows">
        {rows.map(([label, value], index) => (
          <div key={index} className="editor-summary__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
  const images = state.slots.filter(slotIsFilled);
  return (
    <div className="editor-confirm">
      {block('IMAGE', [
        ['Title', values.title],
        [
          'Images',
          <span className="editor-summary__images">
            {images.map(
              (slot, index) =>
                slot.preview && (
                  <img key={index} src={slot.preview} alt={`Upload ${index + 1}`} width={56} height={56} />
                ),
            )}
          </span>,
        ],
      ])}
      {block('CATEGORY', [
        ['Category', values.category],
        ['Subject', values.subject],
        ['Style', values.style],
        ['Year', values.year],
      ])}
      {block('MEDIUM', [
        ['Medium', listed(values.medium)],
        ['Materials', listed(values.materials)],
      ])}
      {block('SIZE', [['Dimensions', formatDimensions(values)]])}
      {block('DESCRIPTION', [
        ['Keywords', listed(values.keywords)],
        ['Description', <span className="editor-summary__text">{values.description}</span>],
        ['AI use', AI_USE_LABELS[values.ai_use as AiUse] ?? '—'],
      ])}
      {block(
        'CONNECTION',
        selected.length > 0
          ? selected.map((c) => [titleOrUntitled(c.next_cell.art.title), c.description])
          : [['Connections', 'None']],
      )}
    </div>
  );
}
