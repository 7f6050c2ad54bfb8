/**
 * The avatar popup 'profile picture.' (decision 015): the guidelines, BROWSE to choose a picture (checked for size
 * and real type before anything else), the cropper, and APPLY, which hands the 300x300 JPEG to the profile form.
 * The picture is saved with the rest of the profile when the form is submitted.
 */
import { useEffect, useRef, useState } from 'react';
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { Avatar } from '#client/app/avatar.tsx';
import { messages } from '#client/locale/messages.ts';
import { Popup } from '#client/popups/popup.tsx';
import { AvatarCropper, CROP_FRAME } from './avatar-cropper.tsx';
import { openAvatarFile } from './avatar-file.ts';
import { renderAvatar } from './avatar-output.ts';
import { initialView, type CropView } from './crop-geometry.ts';
import './avatar.css';

export interface AvatarPopupProps {
  /** The picture shown until another is chosen. */
  currentImage: string | null;
  name: string;
  onApply: (avatar: Blob) => void;
  onClose: () => void;
}

const ACCEPT = [...AVATAR_LIMITS.types, '.jpg', '.jpeg', '.png', '.gif'].join(',');

export function AvatarPopup({ currentImage, name, onApply, onClose }: AvatarPopupProps) {
  const input = useRef<HTMLInputElement>(null);
  const [picture, setPicture] = useState<ImageBitmap | null>(null);
  const [view, setView] = useState<CropView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // A decoded picture holds memory until it is closed.
  useEffect(() => () => picture?.close(), [picture]);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    const opened = await openAvatarFile(file);
    setBusy(false);
    if (!opened.ok) {
      setError(opened.message);
      return;
    }
    setError(null);
    setPicture(opened.picture);
    setView(initialView(opened.picture, CROP_FRAME));
  };

  const apply = async () => {
    if (!picture || !view) return;
    setBusy(true);
    try {
      onApply(await renderAvatar(picture, view, CROP_FRAME));
    } catch {
      setError(messages.undefinedError);
      setBusy(false);
    }
  };

  return (
    <Popup title="profile picture." eyebrow="your profile" onClose={onClose} testId="avatar-popup">
      <p className="popup__lead">
        Choose a JPEG, PNG or GIF of no more than 8MB. It is cropped to a square of {AVATAR_LIMITS.size}x
        {AVATAR_LIMITS.size} pixels.
      </p>
      <div className="avatar-popup__stage">
        {picture && view ? (
          <AvatarCropper picture={picture} view={view} onViewChange={setView} />
        ) : (
          <Avatar image={currentImage} name={name} className="avatar-popup__current" />
        )}
      </div>
      <div className="avatar-popup__message" aria-live="assertive">
        {error && (
          <p className="form-message form-message--error" role="alert" data-testid="avatar-error">
            {error}
          </p>
        )}
      </div>
      <input
        ref={input}
        className="visually-hidden"
        type="file"
        accept={ACCEPT}
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          // Cleared, so choosing the same file again still reports it.
          event.currentTarget.value = '';
          void choose(file);
        }}
        data-testid="avatar-file"
      />
      <div className="popup__actions avatar-popup__actions">
        <button
          type="button"
          className="button button--quiet"
          onClick={() => input.current?.click()}
          disabled={busy}
          data-autofocus
        >
          BROWSE
        </button>
        <button type="button" className="button" onClick={() => void apply()} disabled={busy || !picture}>
          APPLY
        </button>
      </div>
    </Popup>
  );
}
