/**
 * The live preview beside the wizard (docs/product.md, Screens and routes: editor): the piece as it will hang, from what has been entered so
 * far: the main image in its square, the other images, title and year, the facts, the dimensions and the AI label.
 * Everything is rendered as text.
 */
import { AI_USE_LABELS, formatDimensions } from '#client/art/art-facts.tsx';
import { AI_USE_OPTIONS, type AiUse } from '#shared/constants.ts';
import { slotIsFilled, type EditorState } from './editor-state.ts';
import { titleOrUntitled } from '#shared/words.ts';

const isAiUse = (value: string): value is AiUse => (AI_USE_OPTIONS as readonly string[]).includes(value);

export function ArtPreview({ state, artistName }: { state: EditorState; artistName: string }) {
  const { values } = state;
  const images = state.slots.filter(slotIsFilled);
  const [main, ...others] = images;
  const title = titleOrUntitled(values.title);
  const facts = [values.category, values.subject, values.style].filter((fact) => fact !== '');
  const hasSize = values.no_size || [values.width, values.height, values.depth].some((side) => side.trim() !== '');
  return (
    <aside className="panel-card editor-preview" aria-label="Preview of your piece" data-testid="art-preview">
      <p className="editor-preview__label">Preview</p>
      <div className="editor-preview__stage">
        {main?.preview ? (
          <img
            className="editor-preview__image"
            src={main.preview}
            alt={`${title}, the main view`}
            data-testid="preview-image"
          />
        ) : (
          <span className="editor-preview__placeholder">Your main image shows here</span>
        )}
      </div>
      {others.length > 0 && (
        <ul className="editor-preview__thumbs">
          {others.map(
            (slot, index) =>
              slot.preview && (
                <li key={index}>
                  <img src={slot.preview} alt="" width={56} height={56} />
                </li>
              ),
          )}
        </ul>
      )}
      {artistName && <p className="editor-preview__artist">{artistName}</p>}
      <p className="editor-preview__title" data-testid="preview-title">
        {title}
        {values.year !== '' && <span className="editor-preview__year">, {values.year}</span>}
      </p>
      {facts.length > 0 && <p className="editor-preview__facts">{facts.join(' · ')}</p>}
      {values.medium.length > 0 && (
        <p className="editor-preview__facts">{[...values.medium, ...values.materials].join(', ')}</p>
      )}
      {hasSize && (
        <p className="editor-preview__facts" data-testid="preview-size">
          {formatDimensions(values)}
        </p>
      )}
      {isAiUse(values.ai_use) && <p className="editor-preview__ai">{AI_USE_LABELS[values.ai_use]}</p>}
      {values.keywords.length > 0 && (
        <p className="editor-preview__keywords">{values.keywords.map((k) => `#${k}`).join(' ')}</p>
      )}
    </aside>
  );
}
