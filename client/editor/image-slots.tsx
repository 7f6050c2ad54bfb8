/**
 * The image list of the IMAGE step (spec §4, §5): up to 3 images, the first the main one, always one empty slot
 * while there is room; each slot shows its picture, its error, and buttons to replace or remove it. A published
 * piece's main image is locked for its author, with a note to contact us.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import { ART_LIMITS } from '#shared/constants.ts';
import { EMPTY_SLOT, slotIsFilled, type ImageSlot } from './editor-state.ts';
import { checkImageFile } from './image-file-check.ts';

const ACCEPT = ART_LIMITS.imageTypes.join(',');

export interface ImageSlotsProps {
  slots: ImageSlot[];
  mainLocked: boolean;
  /** The list's own error (too many images). */
  listError: string | undefined;
  errors: Record<string, string>;
  onChange(index: number, slot: ImageSlot): void;
}

export function ImageSlots({ slots, mainLocked, listError, errors, onChange }: ImageSlotsProps) {
  const choose = async (index: number, file: File | undefined) => {
    if (!file) return;
    const current = slots[index] ?? EMPTY_SLOT;
    const checked = await checkImageFile(file);
    if ('error' in checked) return onChange(index, { ...current, error: checked.error });
    releasePreview(current);
    onChange(index, { file, preview: checked.preview, picture: null, error: null });
  };
  const remove = (index: number) => {
    releasePreview(slots[index] ?? EMPTY_SLOT);
    onChange(index, EMPTY_SLOT);
  };

  return (
    <div className="editor-images">
      <ul className="editor-images__list">
        {slots.map((slot, index) => (
          <SlotView
            key={index}
            index={index}
            slot={slot}
            locked={index === 0 && mainLocked && slot.picture !== null}
            error={errors[`files.${index}`] ?? slot.error ?? undefined}
            onChoose={(file) => void choose(index, file)}
            onRemove={() => remove(index)}
          />
        ))}
      </ul>
      {listError && (
        <p className="field__error" role="alert" data-testid="error-files">
          {listError}
        </p>
      )}
      <p className="field__hint">
        Up to {ART_LIMITS.maxImages} images: JPEG, PNG or GIF, at most 16 MB each. The first one is the main image, shown on the
        tree.
      </p>
      {mainLocked && (
        <p className="form__note" data-testid="main-image-locked">
          Your piece is published, so its main image can only be changed by our team: <Link to="/contact">contact us</Link> to change
          it. Its other images and its texts are yours to edit.
        </p>
      )}
    </div>
  );
}

interface SlotViewProps {
  index: number;
  slot: ImageSlot;
  locked: boolean;
  error: string | undefined;
  onChoose(file: File | undefined): void;
  onRemove(): void;
}

function SlotView({ index, slot, locked, error, onChoose, onRemove }: SlotViewProps) {
  const id = useId();
  const name = index === 0 ? 'Main image' : `Image ${index + 1}`;
  const filled = slotIsFilled(slot);
  return (
    <li className={error ? 'editor-slot has-error' : 'editor-slot'} data-testid={`image-slot-${index}`}>
      <div className="editor-slot__frame">
        {filled && slot.preview ? (
          <img className="editor-slot__image" src={slot.preview} alt={name} data-testid={`image-preview-${index}`} />
        ) : (
          <span className="editor-slot__empty" aria-hidden="true">
            +
          </span>
        )}
      </div>
      <p className="editor-slot__name">{name}</p>
      {!locked && (
        <div className="editor-slot__actions">
          <label className="button button--quiet editor-slot__choose" htmlFor={id}>
            {filled ? 'Replace' : 'Choose'}
            <span className="visually-hidden"> {name.toLowerCase()}</span>
          </label>
          <input
            id={id}
            className="visually-hidden"
            type="file"
            accept={ACCEPT}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            data-testid={`image-input-${index}`}
            onChange={(event) => {
              onChoose(event.currentTarget.files?.[0]);
              event.currentTarget.value = '';
            }}
          />
          {filled && (
            <button type="button" className="button button--quiet" onClick={onRemove} data-testid={`image-remove-${index}`}>
              Remove<span className="visually-hidden"> {name.toLowerCase()}</span>
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="field__error" id={`${id}-error`} data-testid={`error-files.${index}`}>
          {error}
        </p>
      )}
    </li>
  );
}

function releasePreview(slot: ImageSlot): void {
  if (slot.file && slot.preview) URL.revokeObjectURL(slot.preview);
}
