/**
 * The image list of the IMAGE step (decision 011): up to 3 images, the first the main one, and one empty slot while
 * there is room. Each slot is one tile that opens the file picker or takes a dropped file; a filled one can be removed.
 * A published piece's images are locked for its author (decision 042): only their descriptions can change.
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import { Link } from '#client/router/react.tsx';
import { ART_LIMITS } from '#shared/constants.ts';
import { EMPTY_SLOT, slotIsFilled, type ImageSlot } from './editor-state.ts';
import { checkImageFile } from './image-file-check.ts';

const ACCEPT = ART_LIMITS.imageTypes.join(',');

export interface ImageSlotsProps {
  slots: ImageSlot[];
  /** The piece is published: its images are the ones staff reviewed, and only their descriptions change. */
  picturesLocked: boolean;
  /** The list's own error (too many images). */
  listError: string | undefined;
  errors: Record<string, string>;
  onChange: (index: number, slot: ImageSlot) => void;
}

export function ImageSlots({ slots, picturesLocked, listError, errors, onChange }: ImageSlotsProps) {
  const choose = async (index: number, file: File | undefined) => {
    if (!file) return;
    const current = slots[index] ?? EMPTY_SLOT;
    const checked = await checkImageFile(file);
    if ('error' in checked) return onChange(index, { ...current, error: checked.error });
    releasePreview(current);
    // A new picture shows something else: its description starts afresh.
    onChange(index, { file, preview: checked.preview, picture: null, description: '', error: null });
  };
  const remove = (index: number) => {
    releasePreview(slots[index] ?? EMPTY_SLOT);
    onChange(index, EMPTY_SLOT);
  };

  return (
    <div className="editor-images">
      <ul className="editor-images__list">
        {slots.map((slot, index) =>
          picturesLocked && slot.picture === null ? null : (
            <SlotView
              key={index}
              index={index}
              slot={slot}
              locked={picturesLocked}
              error={errors[`files.${index}`] ?? slot.error ?? undefined}
              descriptionError={errors[`descriptions.${index}`]}
              onChoose={(file) => void choose(index, file)}
              onDescribe={(description) => onChange(index, { ...slot, description })}
              onRemove={() => remove(index)}
            />
          ),
        )}
      </ul>
      {listError && (
        <p className="field__error" role="alert" data-testid="error-files">
          {listError}
        </p>
      )}
      {!picturesLocked && (
        <p className="field__hint">
          Up to {ART_LIMITS.maxImages} images: JPEG, PNG or GIF, at most 16 MB each. The first one is the main image,
          shown on the tree.
        </p>
      )}
      {picturesLocked && (
        <p className="form__note" data-testid="main-image-locked">
          Your piece is published, so its images are the ones our team reviewed and only we can change them:{' '}
          <Link to="/contact">contact us</Link> to change one. Their descriptions and your texts are yours to edit.
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
  descriptionError: string | undefined;
  onChoose: (file: File | undefined) => void;
  onDescribe: (description: string) => void;
  onRemove: () => void;
}

/** The slots' places in words (ART_LIMITS.maxImages of them), for sentences that name a picture. */
const ORDINALS = ['main', 'second', 'third'];

/** A slot's picture in a sentence: "the main image", "the second image" (a tile's caption says "Image 2"). */
function pictureInWords(index: number): string {
  const ordinal = ORDINALS[index];
  return ordinal ? `the ${ordinal} image` : `image ${index + 1}`;
}

/** Whether a drag carries files (not text or a link dragged from the page). */
const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

function SlotView({ index, slot, locked, error, descriptionError, onChoose, onDescribe, onRemove }: SlotViewProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dropping, setDropping] = useState(false);
  // dragenter and dragleave also fire for the tile's children: the highlight goes when the count is back to 0.
  const dragDepth = useRef(0);
  const name = index === 0 ? 'Main image' : `Image ${index + 1}`;
  const filled = slotIsFilled(slot);
  const errorId = error ? `${id}-error` : undefined;
  // In the tile the picture needs no text of its own: the tile's caption names it.
  const pictureOf = (alt: string) =>
    filled && slot.preview ? (
      <img className="editor-slot__image" src={slot.preview} alt={alt} data-testid={`image-preview-${index}`} />
    ) : (
      <span className="editor-slot__empty" aria-hidden="true">
        +
      </span>
    );
  const errorText = error && (
    <p className="field__error" id={errorId} data-testid={`error-files.${index}`}>
      {error}
    </p>
  );

  if (locked) {
    return (
      <li className={error ? 'editor-slot has-error' : 'editor-slot'} data-testid={`image-slot-${index}`}>
        <div className="editor-slot__frame">{pictureOf(slot.description || name)}</div>
        <p className="editor-slot__name">{name}</p>
        {errorText}
        <DescriptionField index={index} value={slot.description} error={descriptionError} onChange={onDescribe} />
      </li>
    );
  }

  const endDrag = () => {
    dragDepth.current = 0;
    setDropping(false);
  };
  const classes = ['editor-slot', error && 'has-error', dropping && 'is-drop-target'].filter(Boolean).join(' ');
  const hint = dropping
    ? filled
      ? 'Drop to replace it'
      : 'Drop to add it'
    : filled
      ? 'Click or drop to replace'
      : 'Click or drop an image';
  return (
    <li
      className={classes}
      data-testid={`image-slot-${index}`}
      onDragEnter={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        dragDepth.current += 1;
        setDropping(true);
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        // Without this the browser would not offer the drop here (and would open the file in the tab instead).
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        dragDepth.current = Math.max(0, dragDepth.current - 1);
        if (dragDepth.current === 0) setDropping(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        endDrag();
        onChoose(event.dataTransfer.files[0]);
      }}
    >
      {/* eslint-disable-next-line jsx-a11y/role-supports-aria-props -- the tile is the field: aria-invalid with aria-describedby says why its file was refused */}
      <button
        type="button"
        className="editor-slot__tile"
        onClick={() => input.current?.click()}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        data-testid={`image-tile-${index}`}
      >
        <span className="editor-slot__frame">{pictureOf('')}</span>
        <span className="editor-slot__name">{name}</span>
        <span className="editor-slot__hint" data-testid={`image-hint-${index}`}>
          {hint}
        </span>
      </button>
      <input
        ref={input}
        id={id}
        className="visually-hidden"
        type="file"
        accept={ACCEPT}
        tabIndex={-1}
        aria-hidden="true"
        data-testid={`image-input-${index}`}
        onChange={(event) => {
          onChoose(event.currentTarget.files?.[0]);
          event.currentTarget.value = '';
        }}
      />
      {filled && (
        <DescriptionField index={index} value={slot.description} error={descriptionError} onChange={onDescribe} />
      )}
      {filled && (
        <div className="editor-slot__actions">
          <button
            type="button"
            className="button button--quiet"
            onClick={onRemove}
            data-testid={`image-remove-${index}`}
          >
            Remove<span className="visually-hidden"> {pictureInWords(index)}</span>
          </button>
        </div>
      )}
      {errorText}
    </li>
  );
}

interface DescriptionFieldProps {
  index: number;
  value: string;
  error: string | undefined;
  onChange: (description: string) => void;
}

/** What the picture shows, in the artist's words: the text people who cannot see it are given instead (alt text). */
function DescriptionField({ index, value, error, onChange }: DescriptionFieldProps) {
  const id = useId();
  return (
    <div className={error ? 'editor-slot__describe has-error' : 'editor-slot__describe'}>
      <label className="editor-slot__describe-label" htmlFor={id}>
        Describe {pictureInWords(index)}
      </label>
      <textarea
        id={id}
        className="editor-slot__describe-input"
        rows={2}
        maxLength={ART_LIMITS.pictureDescription}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        data-testid={`image-description-${index}`}
      />
      <p className="field__hint" id={`${id}-hint`}>
        Optional. For people who cannot see it: what the picture shows, in a sentence (read aloud by screen readers).
      </p>
      {error && (
        <p className="field__error" id={`${id}-error`} data-testid={`error-descriptions.${index}`}>
          {error}
        </p>
      )}
    </div>
  );
}

function releasePreview(slot: ImageSlot): void {
  if (slot.file && slot.preview) URL.revokeObjectURL(slot.preview);
}
