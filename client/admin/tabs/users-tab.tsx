/**
 * USERS: find a member by name or e-mail, change their role, disable an account (which ends its sessions) or enable
 * it again. Staff cannot change or disable their own account here (the server refuses it too).
 */
import { personName } from '#shared/people.ts';
import { useId, useState, type FormEvent } from 'react';
import type { AdminUser } from '#shared/admin-api.ts';
import type { Role } from '#shared/domain.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from '#client/app/current-user.ts';
import { ConfirmButton } from '../confirm-button.tsx';
import { ROLE_CHOICES, ROLE_LABELS, labelOf } from '../labels.ts';
import {
  AdminTable,
  DateTime,
  EmptyNote,
  NoticeLine,
  QueryView,
  SectionHeading,
  runStaffAction,
  type Notice,
} from '../parts.tsx';
import { profileLinkOf } from '../sections.ts';
import { Pager } from './pager.tsx';

export function UsersTab() {
  const searchId = useId();
  const roleId = useId();
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState<{ search: string; role?: Role; page: number }>({ search: '', page: 1 });
  const [notice, setNotice] = useState<Notice | null>(null);
  const users = trpc.admin.users.useQuery(query, { placeholderData: (previous) => previous });

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setQuery((current) => ({ ...current, search: draft.trim(), page: 1 }));
  };

  return (
    <section className="admin-section">
      <SectionHeading title="users." lead="Members of the gallery: roles, and accounts that may not log in." />
      <form className="admin-search" role="search" onSubmit={onSearch}>
        <div className="field">
          <label className="field__label" htmlFor={searchId}>
            Name or e-mail
          </label>
          <input
            id={searchId}
            className="field__input"
            type="search"
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={roleId}>
            Role
          </label>
          <select
            id={roleId}
            className="field__input field__select"
            value={query.role ?? ''}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setQuery((current) => ({
                search: current.search,
                page: 1,
                ...(value === '' ? {} : { role: Number(value) as Role }),
              }));
            }}
          >
            <option value="">Any role</option>
            {ROLE_CHOICES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          Search
        </button>
      </form>
      <NoticeLine notice={notice} />
      <QueryView query={users}>
        {(page) =>
          page.items.length === 0 ? (
            <EmptyNote>No member matches.</EmptyNote>
          ) : (
            <>
              <AdminTable
                testId="users"
                caption={`Members, ${page.total} in all`}
                columns={['Member', 'Joined', 'Role', 'Account']}
              >
                {page.items.map((user) => (
                  <UserRow key={user.token} user={user} onNotice={setNotice} />
                ))}
              </AdminTable>
              <Pager
                label="Pages of members"
                page={page.page}
                pageSize={page.pageSize}
                total={page.total}
                onPage={(next) => setQuery((current) => ({ ...current, page: next }))}
              />
            </>
          )
        }
      </QueryView>
    </section>
  );
}

function UserRow({ user, onNotice }: { user: AdminUser; onNotice: (notice: Notice) => void }) {
  const roleId = useId();
  const { user: me } = useCurrentUser();
  const utils = trpc.useUtils();
  const setRole = trpc.admin.setRole.useMutation();
  const disable = trpc.admin.disableUser.useMutation();
  const enable = trpc.admin.enableUser.useMutation();
  const [role, setRoleChoice] = useState<number>(user.role);
  const isMe = me?.token === user.token;
  const name = personName(user, 'Unnamed');

  const run = (action: () => Promise<unknown>, done: string) =>
    runStaffAction({
      run: action,
      done,
      onNotice,
      onFailure: () => setRoleChoice(user.role),
      refresh: () => Promise.all([utils.admin.users.invalidate(), utils.admin.staffLog.invalidate()]),
    });

  return (
    <tr data-testid="user-row" data-user={user.token}>
      <td>
        <a href={profileLinkOf(user.token)}>{name}</a>
        {isMe && <span className="admin-muted"> (you)</span>}
        <br />
        <span className="admin-muted">{user.email}</span>
      </td>
      <td>
        <DateTime time={user.createdAt} />
      </td>
      <td>
        <div className="admin-inline">
          <label className="visually-hidden" htmlFor={roleId}>
            Role of {name}
          </label>
          <select
            id={roleId}
            className="field__input field__select admin-inline__select"
            value={role}
            disabled={isMe}
            onChange={(event) => setRoleChoice(Number(event.currentTarget.value))}
          >
            {ROLE_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {ROLE_LABELS[choice]}
              </option>
            ))}
          </select>
          {role !== user.role && (
            <button
              type="button"
              className="button button--small"
              disabled={setRole.isPending}
              onClick={() =>
                void run(
                  () => setRole.mutateAsync({ userToken: user.token, role: role as Role }),
                  `${name} is now: ${labelOf(ROLE_LABELS, role)}.`,
                )
              }
            >
              Save role
            </button>
          )}
        </div>
      </td>
      <td>
        {user.disabled ? (
          <div className="admin-inline">
            <span className="admin-badge admin-badge--disabled">disabled</span>
            <button
              type="button"
              className="button button--small button--quiet"
              disabled={enable.isPending}
              onClick={() => void run(() => enable.mutateAsync({ userToken: user.token }), `${name} can log in again.`)}
            >
              Enable
            </button>
          </div>
        ) : (
          <ConfirmButton
            label="Disable"
            question={`Disable ${name}? They are logged out everywhere and cannot log in until enabled.`}
            confirmLabel="Yes, disable"
            onConfirm={() =>
              void run(() => disable.mutateAsync({ userToken: user.token }), `${name} is disabled and logged out.`)
            }
            busy={disable.isPending}
            disabled={isMe}
            danger
          />
        )}
      </td>
    </tr>
  );
}
