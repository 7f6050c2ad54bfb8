/**
 * REQUEST REMOVAL on the details page (decision 011): the author of a published piece asks staff to take it down,
 * with a reason in a small dialog. While a request is open the page says it is waiting for our team instead of
 * offering the action. A piece that is not published (waiting for review, changes requested) offers neither.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { ArtDetails } from '#shared/art-api.ts';
import { ART_LIMITS } from '#shared/constants.ts';
import { ArtStatus } from '#shared/domain.ts';
import { removalRequestSchema } from '#shared/validation/art.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from '#client/app/current-user.ts';
import { FormMessage, SubmitButton } from '#client/forms/fields.tsx';
import { useForm } from '#client/forms/use-form.ts';
import { DialogHeader } from '#client/ui/dialog-header.tsx';
import { mayRequestRemoval } from '#shared/permissions.ts';
import { formatDate } from '#client/app/dates.ts';

export function ArtRemoval({ piece }: { piece: ArtDetails }) {
  const { user } = useCurrentUser();
  const [pendingSince, setPendingSince] = useState<number | null>(piece.removalRequest?.createdAt ?? null);
  const [open, setOpen] = useState(false);
  if (!mayRequestRemoval(user, { own: user?.token === piece.author.token })) return null;
  // Only a published piece can be taken down; the server refuses the request for any other.
  if (piece.status !== ArtStatus.Published) return null;

  if (pendingSince !== null) {
    return (
      <p className="art-removal__pending" role="status" data-testid="art-removal-pending">
        You asked on {formatDate(pendingSince, 'long')} for this piece to be removed. Your request is waiting for our
        team.
      </p>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button button--quiet"
        onClick={() => setOpen(true)}
        data-testid="art-request-removal"
      >
        REQUEST REMOVAL
      </button>
      {open && (
        <RemovalDialog
          cellToken={piece.cell.token}
          onClose={() => setOpen(false)}
          onRequested={(createdAt) => {
            setOpen(false);
            setPendingSince(createdAt);
          }}
        />
      )}
    </>
  );
}

function RemovalDialog({
  cellToken,
  onClose,
  onRequested,
}: {
  cellToken: string;
  onClose: () => void;
  onRequested: (createdAt: number) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const reasonId = useId();
  const request = trpc.art.requestRemoval.useMutation();
  const form = useForm({
    initialValues: { reason: '' },
    schema: removalRequestSchema,
    onSubmit: async ({ reason }) => onRequested((await request.mutateAsync({ cellToken, reason })).createdAt),
  });

  useEffect(() => {
    ref.current?.showModal();
  }, []);

  const error = form.fieldErrors.reason;
  return (
    <dialog
      ref={ref}
      className="dialog art-removal"
      aria-labelledby={titleId}
      onClose={onClose}
      data-testid="art-removal-dialog"
    >
      <div className="dialog__box">
        <DialogHeader titleId={titleId} title="request removal." onClose={onClose} />
        <form className="form" onSubmit={form.handleSubmit} noValidate>
          <p className="dialog__lead">
            Our team will take your piece down from the tree and free its square. Tell us why, if you like: it helps us.
          </p>
          <div className={error ? 'field has-error' : 'field'}>
            <label className="field__label" htmlFor={reasonId}>
              Reason
            </label>
            <textarea
              id={reasonId}
              className="field__input art-removal__reason"
              rows={4}
              maxLength={ART_LIMITS.description}
              value={form.values.reason}
              onChange={(event) => form.setValue('reason', event.currentTarget.value)}
              aria-invalid={error ? true : undefined}
              data-testid="art-removal-reason"
            />
            {error && <p className="field__error">{error}</p>}
          </div>
          <FormMessage notice={form.notice} />
          <div className="form__actions">
            <SubmitButton submitting={form.submitting}>Send request</SubmitButton>
            <button type="button" className="button button--quiet" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      </div>
    </dialog>
  );
}
