/**
 * The CONNECTION step (docs/product.md, Pieces (art)): the published pieces on the 8 squares around this one; each one ticked needs a
 * description of the connection. With no published neighbour there is nothing to choose.
 */
import { personName } from '#shared/people.ts';
import { ART_LIMITS } from '#shared/constants.ts';
import { TextArea } from '../editor-fields.tsx';
import { setConnection } from '../editor-state.ts';
import type { StepProps } from './step-props.ts';
import { ConnectionStatus } from '#shared/domain.ts';
import { titleOrUntitled } from '#shared/words.ts';

export function ConnectionStep({ state, update, loading }: StepProps & { loading: boolean }) {
  if (loading) return <p className="editor__loading">Loading...</p>;
  if (state.connections.length === 0) {
    return (
      <p className="form__note" data-testid="no-connections">
        No published piece touches this square yet, so there is nothing to connect to. You can go on.
      </p>
    );
  }
  return (
    <ul className="editor-connections" data-testid="connections">
      {state.connections.map((connection, index) => {
        const next = connection.next_cell;
        const title = titleOrUntitled(next.art.title);
        const artist = personName(next.art.author);
        const selected = connection.status === ConnectionStatus.Selected;
        return (
          <li
            key={connection.token}
            className={selected ? 'editor-connection editor-connection--on' : 'editor-connection'}
            data-testid="connection"
          >
            <label className="editor-connection__pick">
              <input
                type="checkbox"
                checked={selected}
                onChange={(event) => {
                  const status = event.currentTarget.checked ? 1 : 0;
                  update((s) => setConnection(s, connection.token, { status }));
                }}
                data-testid="connection-toggle"
              />
              {next.art.picture ? (
                <img src={next.art.picture.thumb} alt="" width={64} height={64} className="editor-connection__thumb" />
              ) : (
                <span className="editor-connection__thumb" aria-hidden="true" />
              )}
              <span>
                <span className="editor-connection__title">
                  {title}
                  {next.art.year !== null && `, ${next.art.year}`}
                </span>
                {artist && <span className="editor-connection__artist">{artist}</span>}
              </span>
            </label>
            {selected && (
              <TextArea
                label="How does your piece connect to this one?"
                testId={`connections.${index}.description`}
                value={connection.description}
                maxLength={ART_LIMITS.connectionDescription}
                error={state.errors[`connections.${index}.description`]}
                onChange={(description) => update((s) => setConnection(s, connection.token, { description }))}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
