/**
 * FOLLOWING of manage profile: the members the viewer follows, with the date they started, VIEW PROFILE,
 * and a remove icon that unfollows and fetches the list again.
 */
import { personName } from '#shared/people.ts';
import { useState } from 'react';
import { Link } from '#client/router/react.tsx';
import type { CurrentUser } from '#shared/api-types.ts';
import type { FollowedUser } from '#shared/profile-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { Avatar } from '#client/app/avatar.tsx';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { errorMessageFor, messages } from '#client/locale/messages.ts';
import { CloseIcon } from '#client/tree/tree-icons.tsx';
import { shortDate } from '../profile-text.ts';
import { ListPanel } from './list-panel.tsx';
import { profilePath } from '#shared/paths.ts';

export function FollowingPanel({ user }: { user: CurrentUser }) {
  const following = trpc.user.following.useQuery({ token: user.token }, { retry: false });
  return (
    <ListPanel
      title="Artists you follow"
      lead="Most recently followed first."
      query={following}
      failure="The list could not be loaded just now. Please try again in a moment."
      empty={
        <div className="panel-status" data-testid="following-empty">
          <p>You currently have no followers</p>
          <p className="panel-status__hint">Follow an artist from their profile page and they appear here.</p>
        </div>
      }
    >
      {(people) => <FollowingTable viewerToken={user.token} people={people} />}
    </ListPanel>
  );
}

function FollowingTable({ viewerToken, people }: { viewerToken: string; people: FollowedUser[] }) {
  const utils = trpc.useUtils();
  const unfollow = trpc.user.unfollow.useMutation();
  const [error, setError] = useState<string | null>(null);

  const remove = async (person: FollowedUser) => {
    setError(null);
    try {
      await unfollow.mutateAsync({ token: viewerToken, otherToken: person.token });
    } catch (failure) {
      setError(errorMessageFor(errorBodyOf(failure)?.error) ?? messages.undefinedError);
    }
    // Fetched again either way: a failure may mean the list was out of date.
    await utils.user.following.invalidate({ token: viewerToken });
    void utils.user.followStatus.invalidate();
  };

  return (
    <>
      {error && (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      )}
      <div className="profile-table-wrap">
        <table className="data-table profile-table" data-testid="following-table">
          <thead>
            <tr>
              <th scope="col">Artist name</th>
              <th scope="col">Date followed</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {people.map((person) => {
              const name = personName(person, 'A member');
              return (
                <tr key={person.token} data-testid="following-row">
                  <td>
                    <span className="profile-table__person">
                      <Avatar image={person.image} name={name} className="profile-table__avatar" decorative />
                      <span data-testid="following-name">{name}</span>
                    </span>
                  </td>
                  <td data-label="Date followed" className="profile-table__nowrap">
                    {shortDate(person.created_at)}
                  </td>
                  <td className="profile-table__actions">
                    <span className="profile-table__buttons">
                      <Link to={profilePath(person.token)} className="button" data-testid="following-view">
                        VIEW PROFILE
                      </Link>
                      <button
                        type="button"
                        className="close-button profile-table__remove"
                        aria-label={`Unfollow ${name}`}
                        disabled={unfollow.isPending}
                        onClick={() => void remove(person)}
                        data-testid="following-remove"
                      >
                        <CloseIcon />
                      </button>
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
