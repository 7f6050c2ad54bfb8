/**
 * A profile's likes and followers, with the like and follow toggles for whom shared/permissions.ts allows: they answer
 * at once and take the server's counts when they arrive (or go back, with a message, when the call fails).
 */
import { useState } from 'react';
import type { PublicProfile } from '#shared/profile-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from '#client/app/current-user.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { errorMessageFor, messages } from '#client/locale/messages.ts';
import { HeartIcon } from '#client/art/heart-icon.tsx';
import { atLeastZero } from '#client/ui/counts.ts';
import { mayFollow, mayLikeUser } from '#shared/permissions.ts';

interface Toggled {
  on: boolean;
  count: number;
}

/** One optimistic toggle: `write` puts a state in the query cache, `send` asks the server for the new one. */
function useToggle(
  current: Toggled | undefined,
  write: (state: Toggled) => void,
  send: (on: boolean) => Promise<Toggled>,
) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    if (!current || busy) return;
    const before = current;
    setBusy(true);
    setError(null);
    write({ on: !before.on, count: atLeastZero(before.count + (before.on ? -1 : 1)) });
    try {
      write(await send(!before.on));
    } catch (failure) {
      write(before);
      setError(errorMessageFor(errorBodyOf(failure)?.error) ?? messages.undefinedError);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, toggle };
}

export function ProfileSocial({ profile }: { profile: PublicProfile }) {
  const { user } = useCurrentUser();
  const self = user?.token === profile.token;
  const mayToggle = mayLikeUser(user, { self }) && mayFollow(user, { self });
  return user && mayToggle ? (
    <SocialToggles viewerToken={user.token} profile={profile} />
  ) : (
    <Counts profile={profile} />
  );
}

function Counts({ profile }: { profile: PublicProfile }) {
  return (
    <ul className="profile-social" aria-label="Activity">
      <li className="pill profile-social__stat">
        <HeartIcon className="profile-social__icon" filled={false} />
        <Count value={profile.activity.likes} one="like" many="likes" testId="profile-likes-count" />
      </li>
      <li className="pill profile-social__stat">
        <PersonIcon />
        <Count value={profile.activity.followers} one="follower" many="followers" testId="profile-followers-count" />
      </li>
    </ul>
  );
}

function SocialToggles({ viewerToken, profile }: { viewerToken: string; profile: PublicProfile }) {
  const utils = trpc.useUtils();
  const likeInput = { userToken: viewerToken, otherToken: profile.token };
  const followInput = { token: viewerToken, otherToken: profile.token };
  const likeStatus = trpc.user.likeStatus.useQuery(likeInput, { retry: false });
  const followStatus = trpc.user.followStatus.useQuery(followInput, { retry: false });
  const like = trpc.user.like.useMutation();
  const unlike = trpc.user.unlike.useMutation();
  const follow = trpc.user.follow.useMutation();
  const unfollow = trpc.user.unfollow.useMutation();

  const liked = likeStatus.data && { on: likeStatus.data.liked === 1, count: likeStatus.data.likes };
  const likeToggle = useToggle(
    liked,
    (state) => utils.user.likeStatus.setData(likeInput, { liked: state.on ? 1 : 0, likes: state.count }),
    async (on) => {
      const answer = await (on ? like : unlike).mutateAsync(likeInput);
      return { on: answer.liked === 1, count: answer.likes };
    },
  );
  const followed = followStatus.data && { on: followStatus.data.following === 1, count: followStatus.data.followers };
  const followToggle = useToggle(
    followed,
    (state) => utils.user.followStatus.setData(followInput, { following: state.on ? 1 : 0, followers: state.count }),
    async (on) => {
      const answer = await (on ? follow : unfollow).mutateAsync(followInput);
      // FOLLOWING lists whom the viewer follows: it changed.
      void utils.user.following.invalidate();
      return { on: answer.following === 1, count: answer.followers };
    },
  );

  // A status the server refused (it may not like or follow this member) leaves the counts only.
  if (likeStatus.isError || followStatus.isError) return <Counts profile={profile} />;

  const likes = liked ?? { on: false, count: profile.activity.likes };
  const follows = followed ?? { on: false, count: profile.activity.followers };
  const error = likeToggle.error ?? followToggle.error;
  return (
    <div className="profile-social-block">
      <ul className="profile-social" aria-label="Activity">
        <li>
          <button
            type="button"
            className={
              likes.on ? 'pill pill--button profile-toggle profile-toggle--on' : 'pill pill--button profile-toggle'
            }
            aria-pressed={likes.on}
            disabled={!liked || likeToggle.busy}
            onClick={() => void likeToggle.toggle()}
            data-testid="profile-like-toggle"
          >
            <HeartIcon className="profile-social__icon" filled={likes.on} />
            <Count value={likes.count} one="like" many="likes" testId="profile-likes-count" />
            <span className="visually-hidden">
              {likes.on ? ', liked by you. Click to unlike.' : '. Click to like.'}
            </span>
          </button>
        </li>
        <li>
          <button
            type="button"
            className={
              follows.on ? 'pill pill--button profile-toggle profile-toggle--on' : 'pill pill--button profile-toggle'
            }
            aria-pressed={follows.on}
            disabled={!followed || followToggle.busy}
            onClick={() => void followToggle.toggle()}
            data-testid="profile-follow-toggle"
          >
            <PersonIcon />
            <span className="profile-toggle__label">{follows.on ? 'Following' : 'Follow'}</span>
          </button>
          <span className="pill profile-social__stat">
            <Count value={follows.count} one="follower" many="followers" testId="profile-followers-count" />
          </span>
        </li>
      </ul>
      {error && (
        <p className="profile-social__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function Count({ value, one, many, testId }: { value: number; one: string; many: string; testId: string }) {
  const shown = atLeastZero(value);
  return (
    <>
      <span className="profile-social__count" data-testid={testId}>
        {shown}
      </span>{' '}
      <span>{shown === 1 ? one : many}</span>
    </>
  );
}

function PersonIcon() {
  return (
    <svg
      className="profile-social__icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="8.5" r="3.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path
        d="M5 20c.8-3.6 3.6-5.5 7-5.5s6.2 1.9 7 5.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}
