/**
 * A piece's page (/observe/cell/{cellToken}/details): its pictures, facts, connections and activity, EDIT and REQUEST
 * REMOVAL for its author (decision 011). Everything the artist wrote is rendered as text.
 */
import { personName } from '#shared/people.ts';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from '#client/router/react.tsx';
import type { ArtDetails } from '#shared/art-api.ts';
import { ErrorCode } from '#shared/errors.ts';
import { trpc } from '#client/api/trpc.ts';
import { ArtAbout } from '#client/art/art-about.tsx';
import { ArtActivity } from '#client/art/art-activity.tsx';
import { ArtConnections } from '#client/art/art-connections.tsx';
import { ArtFacts, unpublishedStatusSentence } from '#client/art/art-facts.tsx';
import { ArtPictures } from '#client/art/art-pictures.tsx';
import { ArtRemoval } from '#client/art/art-removal.tsx';
import { usePageTitle } from '#client/app/page-title.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { messages } from '#client/locale/messages.ts';
import { CloseIcon } from '#client/tree/tree-icons.tsx';
import { BackToTree } from '#client/ui/back-to-tree.tsx';
import '#client/art/art-details.css';
import { cellPath, profilePath } from '#shared/paths.ts';
import { titleOrUntitled } from '#shared/words.ts';

/** Codes that mean "no piece a visitor may see here", answered with the friendly not-found message. */
const NOT_FOUND_CODES: readonly string[] = [
  ErrorCode.ArtNotFound,
  ErrorCode.CellNotFound,
  ErrorCode.NotFound,
  ErrorCode.BadRequest,
];

/** How often the page asks again while a picture's deep-zoom pyramid is being cut (the job looks every 10 s). */
const BUILDING_RECHECK_MS = 5000;

export function ArtDetailsPage() {
  const { cellToken = '' } = useParams();
  const navigate = useNavigate();
  const details = trpc.art.details.useQuery(
    { cellToken },
    {
      retry: false,
      refetchOnWindowFocus: false,
      // A picture whose zoomable copy is being cut: ask again until it is ready, so its zoom appears without a reload.
      refetchInterval: (query) =>
        query.state.data?.pictures.some((picture) => picture.deepZoom?.state === 'building')
          ? BUILDING_RECHECK_MS
          : false,
    },
  );
  const shown = details.data ? titleOf(details.data) : null;
  usePageTitle(shown ? `${shown} · details.` : 'details.');

  // A connection's link opens another piece on this same page: start it at the top.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [cellToken]);

  let body;
  if (details.isPending) {
    body = (
      <p className="art-details__loading" aria-busy="true" data-testid="art-details-loading">
        Loading...
      </p>
    );
  } else if (details.isError) {
    const code = errorBodyOf(details.error)?.error;
    body =
      code !== undefined && NOT_FOUND_CODES.includes(code) ? (
        <ArtNotFound />
      ) : (
        <ArtLoadFailed onRetry={() => void details.refetch()} />
      );
  } else {
    body = <ArtDetailsBody key={details.data.token} piece={details.data} />;
  }

  return (
    <section className="page page--wide art-details" data-testid="art-details-page">
      <header className="art-details__header">
        {/* The page's main heading names the piece (below) once it is there; until then, and without one, it is this. */}
        {shown ? (
          <p className="page__title" data-testid="art-details-label">
            details.
          </p>
        ) : (
          <h1 className="page__title">details.</h1>
        )}
        <button
          type="button"
          className="close-button art-details__close"
          aria-label="Close and return to the tree"
          onClick={() => navigate('/observe')}
        >
          <CloseIcon />
        </button>
      </header>
      {body}
    </section>
  );
}

const titleOf = (piece: ArtDetails) => titleOrUntitled(piece.title);

function ArtDetailsBody({ piece }: { piece: ArtDetails }) {
  const authorName = personName(piece.author, 'An artist');
  const title = titleOf(piece);
  const status = unpublishedStatusSentence(piece.status);
  return (
    <>
      {status && (
        <p className="art-details__status" role="status" data-testid="art-status">
          <span className="art-details__status-label">Not published</span> {status}; only you and our team can see it.
        </p>
      )}
      <div className="art-details__layout">
        <div className="art-details__media">
          <ArtPictures pictures={piece.pictures} title={title} />
        </div>
        <div className="art-details__info">
          <p className="art-details__author" data-testid="art-author">
            <Link to={profilePath(piece.author.token)}>{authorName}</Link>
          </p>
          <h1 className="art-details__title" data-testid="art-title">
            {title}
            {piece.year !== null && <span className="art-details__year">, {piece.year}</span>}
          </h1>
          <ArtActivity piece={piece} />
          <ArtFacts piece={piece} />
          <div className="art-details__actions">
            {piece.mayEdit && (
              <Link to={cellPath(piece.cell.token, 'edit')} className="button" data-testid="art-edit">
                EDIT
              </Link>
            )}
            <ArtRemoval piece={piece} />
          </div>
          <ArtAbout description={piece.description} author={piece.author} />
        </div>
      </div>
      <ArtConnections connections={piece.connections} />
    </>
  );
}

function ArtNotFound() {
  return (
    <div className="art-details__missing" data-testid="art-not-found">
      <p className="page__lead">
        We could not find a published piece in this square. It may still be waiting for review, or the link may be
        mistyped.
      </p>
      <p>
        <BackToTree />
      </p>
    </div>
  );
}

function ArtLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="art-details__missing" role="alert" data-testid="art-load-failed">
      <p className="page__lead">{messages.undefinedError}</p>
      <p className="art-details__missing-actions">
        <button type="button" className="button" onClick={onRetry}>
          Try again
        </button>
        <BackToTree quiet />
      </p>
    </div>
  );
}
