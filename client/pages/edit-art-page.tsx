/**
 * Add/Edit art ('add.' or 'edit.'), /observe/cell/{cellToken}/edit: the seven-step wizard (client/editor), with staff's
 * reason while changes are requested, or /forbidden for a viewer who may not edit the piece (docs/product.md, Who may
 * do what). After SUBMIT a final screen thanks the artist and links back to the tree.
 */
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from '#client/router/react.tsx';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { trpc } from '#client/api/trpc.ts';
import { usePageTitle } from '#client/app/page-title.ts';
import { useReservedCell } from '#client/app/reserved-cell.ts';
import { ArtEditor } from '#client/editor/art-editor.tsx';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { ExtendOffer, heldCellOf } from '#client/popups/reservation-parts.tsx';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { errorMessageFor, messages } from '#client/locale/messages.ts';
import { CloseIcon } from '#client/tree/tree-icons.tsx';
import { BackToTree } from '#client/ui/back-to-tree.tsx';

export function EditArtPage() {
  const { cellToken = '' } = useParams();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const { reservedCell, refresh: refreshReservedCell, clearPrompt } = useReservedCell();
  const held = heldCellOf(reservedCell, cellToken);
  const forEdit = trpc.art.forEdit.useQuery(
    { cellToken },
    { retry: false, refetchOnWindowFocus: false, staleTime: Infinity, gcTime: 0 },
  );
  const [submitted, setSubmitted] = useState(false);
  const errorCode = forEdit.isError ? errorBodyOf(forEdit.error)?.error : undefined;
  const refused = forEdit.data?.mayEdit === false || errorCode === ErrorCode.Forbidden;
  usePageTitle(forEdit.data && !forEdit.data.isNew ? 'edit.' : 'add.');

  useEffect(() => {
    if (refused) navigate('/forbidden', { replace: true });
  }, [refused, navigate]);
  // Being in the editor answers the edit-reserved-cell prompt's question: it need not ask over the wizard.
  const mayEdit = forEdit.data?.mayEdit === true;
  useEffect(() => {
    if (mayEdit) clearPrompt();
  }, [mayEdit, clearPrompt]);

  const onSubmitted = () => {
    setSubmitted(true);
    window.scrollTo(0, 0);
    // The square is no longer a draft waiting for upload, and its details have changed.
    void refreshReservedCell();
    void utils.art.details.invalidate({ cellToken });
  };

  let body;
  if (submitted) body = <Congratulations published={forEdit.data?.art?.status === ArtStatus.Published} />;
  else if (forEdit.isPending || refused)
    body = (
      <p className="editor__loading" aria-busy="true" data-testid="editor-loading">
        Loading...
      </p>
    );
  else if (forEdit.isError) {
    body = (
      <div role="alert" data-testid="editor-load-failed">
        <p className="page__lead">{errorMessageFor(errorCode) ?? messages.undefinedError}</p>
        <p>
          <BackToTree />
        </p>
      </div>
    );
  } else {
    const piece = forEdit.data.art;
    body = (
      <>
        {piece?.status === ArtStatus.ChangesRequested && piece.reviewNote && (
          <div className="editor__review-note" role="note" data-testid="review-note">
            <p className="editor__review-note-label">Our team asked for changes</p>
            <p className="editor__review-note-text">{piece.reviewNote}</p>
          </div>
        )}
        {held && held.art.status !== ArtStatus.Submitted && (
          <div className="editor__held" data-testid="editor-held">
            <p>This square is held for you until {formatDeadlineDate(held.expiresAt)}.</p>
            <ExtendOffer cell={held} />
          </div>
        )}
        <ArtEditor data={forEdit.data} onSubmitted={onSubmitted} />
      </>
    );
  }

  return (
    <section className="page page--wide editor-page" data-testid="edit-art-page">
      <header className="editor-page__header">
        <h1 className="page__title">{forEdit.data && !forEdit.data.isNew ? 'edit.' : 'add.'}</h1>
        <button
          type="button"
          className="close-button"
          aria-label="Close and return to the tree"
          onClick={() => navigate('/observe')}
          data-testid="editor-close"
        >
          <CloseIcon />
        </button>
      </header>
      {body}
    </section>
  );
}

function Congratulations({ published }: { published: boolean }) {
  return (
    <div className="editor-done" role="status" data-testid="editor-done">
      <p className="editor-done__title">HUGE CONGRATS ON SHARING YOUR MASTERPIECE!</p>
      <p className="page__lead">
        {published
          ? 'Your changes are saved and already show on the tree.'
          : 'Our team will now review your piece. We will e-mail you as soon as it is published on the tree for everyone to see.'}
      </p>
      <p>
        <Link to="/observe" className="button" data-testid="editor-return">
          RETURN TO THE TREE
        </Link>
      </p>
    </div>
  );
}
