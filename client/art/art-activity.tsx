/**
 * Likes and views ("reviews") of a piece with the like toggle (shared/permissions.ts says who may): a click likes and adds one, a second
 * unlikes and takes one away; the count never shows below 0. Guests, the author and pieces not yet published get
 * the counts only. The view is registered once on mount (docs/api.md), and its answer is the count shown.
 */
import { useEffect, useRef, useState } from 'react';
import type { ArtDetails, LikeStatus } from '#shared/art-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from '#client/app/current-user.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { errorMessageFor, messages } from '#client/locale/messages.ts';
import { atLeastZero } from '#client/ui/counts.ts';
import { HeartIcon } from './heart-icon.tsx';
import { mayLikeArt } from '#shared/permissions.ts';

/** Registers one view of the piece when the page opens; answers the count once the server has it. */
function useRegisteredViews(artToken: string, published: boolean): number | null {
  const view = trpc.art.view.useMutation();
  const [reviews, setReviews] = useState<number | null>(null);
  const sentFor = useRef<string | null>(null);
  const { mutateAsync } = view;
  useEffect(() => {
    if (!published || sentFor.current === artToken) return;
    sentFor.current = artToken;
    setReviews(null);
    mutateAsync({ artToken }).then(
      (answer) => setReviews(answer.reviews),
      () => {}, // A view that could not be counted leaves the count the page loaded with.
    );
  }, [artToken, published, mutateAsync]);
  return reviews;
}

export function ArtActivity({ piece }: { piece: ArtDetails }) {
  const { user } = useCurrentUser();
  const published = piece.status === ArtStatus.Published;
  const mayAskLike = published && mayLikeArt(user, { own: user?.token === piece.author.token });
  const input = { artToken: piece.token };
  const utils = trpc.useUtils();
  const status = trpc.art.likeStatus.useQuery(input, { enabled: mayAskLike, retry: false });
  // A like status the server refused (an admin's own piece, say) leaves the counts only.
  const mayLike = mayAskLike && !status.isError;
  const like = trpc.art.like.useMutation();
  const unlike = trpc.art.unlike.useMutation();
  const [error, setError] = useState<string | null>(null);
  const reviews = useRegisteredViews(piece.token, published) ?? piece.activity.reviews;

  const shown: LikeStatus = mayLike && status.data ? status.data : { liked: 0, likes: piece.activity.likes };
  const busy = like.isPending || unlike.isPending;

  const toggle = async () => {
    if (!mayLike || busy || !status.data) return;
    const before = status.data;
    const wasLiked = before.liked === 1;
    setError(null);
    // Answer at once; the server's count replaces this guess when it arrives.
    utils.art.likeStatus.setData(input, {
      liked: wasLiked ? 0 : 1,
      likes: atLeastZero(before.likes + (wasLiked ? -1 : 1)),
    });
    try {
      const answer = await (wasLiked ? unlike : like).mutateAsync(input);
      utils.art.likeStatus.setData(input, answer);
    } catch (failure) {
      utils.art.likeStatus.setData(input, before);
      setError(errorMessageFor(errorBodyOf(failure)?.error) ?? messages.undefinedError);
    }
  };

  const likes = atLeastZero(shown.likes);
  const liked = shown.liked === 1;
  return (
    <div className="art-activity">
      <ul className="art-activity__counts" aria-label="Activity">
        <li data-testid="art-likes">
          {mayLike ? (
            <button
              type="button"
              className={liked ? 'pill pill--button art-like art-like--on' : 'pill pill--button art-like'}
              aria-pressed={liked}
              disabled={busy || !status.data}
              onClick={() => void toggle()}
              data-testid="art-like-toggle"
            >
              <HeartIcon className="art-activity__icon" filled={liked} />
              <span className="art-activity__count" data-testid="art-likes-count">
                {likes}
              </span>
              <span>{likes === 1 ? 'like' : 'likes'}</span>
              <span className="visually-hidden">{liked ? ', liked by you. Click to unlike.' : '. Click to like.'}</span>
            </button>
          ) : (
            <span className="pill art-activity__stat">
              <HeartIcon className="art-activity__icon" filled={false} />
              <span className="art-activity__count" data-testid="art-likes-count">
                {likes}
              </span>
              <span>{likes === 1 ? 'like' : 'likes'}</span>
            </span>
          )}
        </li>
        <li data-testid="art-reviews">
          <span className="pill art-activity__stat">
            <EyeIcon />
            <span className="art-activity__count" data-testid="art-reviews-count">
              {atLeastZero(reviews)}
            </span>
            <span>{reviews === 1 ? 'view' : 'views'}</span>
          </span>
        </li>
      </ul>
      {error && (
        <p className="art-activity__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function EyeIcon() {
  return (
    <svg className="art-activity__icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
    </svg>
  );
}
