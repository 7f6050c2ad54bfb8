/**
 * The picture on the profile form: the saved avatar (or the placeholder), or the one just applied in the popup
 * until the form is saved, and the button that opens the popup 'profile picture.'.
 */
import { useEffect, useState } from 'react';
import { Avatar } from '#client/app/avatar.tsx';
import { AvatarPopup } from '../avatar/avatar-popup.tsx';
import '../avatar/avatar.css';

export interface AvatarFieldProps {
  savedImage: string | null;
  name: string;
  /** The applied picture waiting to be saved with the form, or null. */
  pending: Blob | null;
  onPendingChange: (avatar: Blob | null) => void;
}

export function AvatarField({ savedImage, name, pending, onPendingChange }: AvatarFieldProps) {
  const [open, setOpen] = useState(false);
  const preview = useObjectUrl(pending);
  return (
    <div className="avatar-field">
      <Avatar image={preview ?? savedImage} name={name} className="avatar-field__picture" />
      <div className="avatar-field__text">
        <p className="field__label">Profile picture</p>
        <p className="avatar-field__note" data-testid="avatar-note">
          {pending
            ? 'Your new picture is saved with the profile.'
            : '300x300 pixels, JPEG, PNG or GIF, no larger than 8MB.'}
        </p>
        <button
          type="button"
          className="button button--quiet avatar-field__edit"
          onClick={() => setOpen(true)}
          data-testid="avatar-edit"
        >
          {savedImage || pending ? 'Change picture' : 'Add a picture'}
        </button>
      </div>
      {open && (
        <AvatarPopup
          currentImage={preview ?? savedImage}
          name={name}
          onApply={(avatar) => {
            onPendingChange(avatar);
            setOpen(false);
          }}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}

/** A blob's object URL for as long as the blob is shown. */
function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}
