/**
 * Manage profile ('manage profile.', spec §2): tabs by role (observers ACCOUNT and FOLLOWING; everyone else
 * PROFILE, ACCOUNT, ATELIER, FOLLOWING). The selected tab lives in the address (?tab=account) so it can be linked.
 * ACCOUNT is built; the other tabs say plainly that they are coming.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { CurrentUser } from '#shared/api-types.ts';
import { ACCOUNT_LIMITS as L, TIMINGS } from '#shared/constants.ts';
import { accountSchema } from '#shared/validation/account.ts';
import { trpc } from '#client/api/trpc.ts';
import { isObserver, useCurrentUser, useReloadCurrentUser } from '#client/app/current-user.ts';
import { usePageTitle } from '#client/app/page-title.ts';
import { CheckboxField, FormMessage, SubmitButton, TextField } from '#client/forms/fields.tsx';
import { accountPasswordNote } from '#client/forms/password-rules.ts';
import { useForm } from '#client/forms/use-form.ts';
import { messages } from '#client/locale/messages.ts';

type TabName = 'profile' | 'account' | 'atelier' | 'following';

const LABELS: Record<TabName, string> = {
  profile: 'Profile',
  account: 'Account',
  atelier: 'Atelier',
  following: 'Following',
};

function tabsFor(user: CurrentUser): TabName[] {
  return isObserver(user) ? ['account', 'following'] : ['profile', 'account', 'atelier', 'following'];
}

export function EditProfilePage() {
  usePageTitle('manage profile.');
  const { user } = useCurrentUser();
  const [search, setSearch] = useSearchParams();
  const baseId = useId();
  const tabRefs = useRef<Partial<Record<TabName, HTMLButtonElement | null>>>({});
  // Guests see no content (the route guard sends them to welcome).
  if (!user) return null;

  const tabs = tabsFor(user);
  const requested = search.get('tab') as TabName | null;
  const selected = requested && tabs.includes(requested) ? requested : tabs[0]!;
  const select = (tab: TabName, focus = false) => {
    setSearch((current) => {
      const next = new URLSearchParams(current);
      next.set('tab', tab);
      return next;
    }, { replace: true });
    if (focus) tabRefs.current[tab]?.focus();
  };

  // The tab list follows the WAI-ARIA pattern: arrows, Home and End move between tabs.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.indexOf(selected);
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(tabs[(target + tabs.length) % tabs.length]!, true);
  };

  return (
    <section className="page manage-profile">
      <h1 className="page__title">manage profile.</h1>
      <div className="tabs" role="tablist" aria-label="Manage profile" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab}
            ref={(element) => {
              tabRefs.current[tab] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab}`}
            className="tabs__tab"
            aria-selected={tab === selected}
            aria-controls={`${baseId}-panel-${tab}`}
            tabIndex={tab === selected ? 0 : -1}
            onClick={() => select(tab)}
          >
            {LABELS[tab]}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel-${selected}`} aria-labelledby={`${baseId}-tab-${selected}`} tabIndex={-1}>
        {panelOf(selected, user)}
      </div>
    </section>
  );
}

function panelOf(tab: TabName, user: CurrentUser): ReactNode {
  switch (tab) {
    case 'account':
      return <AccountPanel key={user.token} user={user} />;
    case 'profile':
      return (
        <ComingSoonPanel title="Your public profile">
          Soon you will edit here what visitors see on your profile: your picture, bio, exhibitions, education and
          links. Your <Link to={`/profile/${user.token}`}>public profile</Link> shows your art meanwhile.
        </ComingSoonPanel>
      );
    case 'atelier':
      return (
        <ComingSoonPanel title="Your atelier">
          Soon every piece you uploaded, and the square you reserved, will be listed here with its likes and views.
          Until then you find them on the <Link to="/observe">tree</Link>.
        </ComingSoonPanel>
      );
    case 'following':
      return (
        <ComingSoonPanel title="Artists you follow">
          Soon the artists you follow will be listed here, with the date you started following them.
        </ComingSoonPanel>
      );
  }
}

function accountValues(user: CurrentUser) {
  return {
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    show_email: user.showEmail,
    password: '',
    confirm_password: '',
  };
}

/**
 * ACCOUNT (spec §2, §4): name, e-mail, whether the e-mail shows on the public profile, and a new password. On
 * success the current user is reloaded and the success message shows for a few seconds.
 */
function AccountPanel({ user }: { user: CurrentUser }) {
  const updateAccount = trpc.user.updateAccount.useMutation();
  const reloadCurrentUser = useReloadCurrentUser();
  const form = useForm({
    initialValues: accountValues(user),
    schema: accountSchema,
    onSubmit: async (input, { resetValues, showSuccess }) => {
      const saved = await updateAccount.mutateAsync({ token: user.token, ...input });
      await reloadCurrentUser();
      resetValues(accountValues(saved));
      showSuccess(messages.accountUpdated, TIMINGS.successMessageMs);
    },
  });

  return (
    <div className="panel-card">
      <h2 className="panel-card__title">Your account</h2>
      <p className="panel-card__lead">The name other members see, the address we write to, and your password.</p>
      <form className="form" onSubmit={form.handleSubmit} noValidate aria-label="Account">
        <div className="form-grid form-grid--two">
          <TextField form={form} name="firstname" label="First name" autoComplete="given-name" maxLength={L.name} />
          <TextField form={form} name="lastname" label="Last name" autoComplete="family-name" maxLength={L.name} />
        </div>
        <TextField form={form} name="email" label="Email" type="email" autoComplete="email" maxLength={L.email} />
        <CheckboxField form={form} name="show_email" label="Show my e-mail address on my public profile" />
        <p className="form__note">
          {accountPasswordNote}
        </p>
        <div className="form-grid form-grid--two">
          <TextField
            form={form}
            name="password"
            label="New password"
            type="password"
            autoComplete="new-password"
            maxLength={L.passwordMax}
          />
          <TextField
            form={form}
            name="confirm_password"
            label="Confirm password"
            type="password"
            autoComplete="new-password"
            maxLength={L.passwordMax}
          />
        </div>
        <FormMessage notice={form.notice} />
        <div className="form__actions">
          <SubmitButton submitting={form.submitting} busyLabel="Saving…">
            Save changes
          </SubmitButton>
        </div>
      </form>
    </div>
  );
}

function ComingSoonPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="panel-card panel-card--soon">
      <h2 className="panel-card__title">{title}</h2>
      <p className="panel-card__lead">This part of your profile is coming soon.</p>
      <p>{children}</p>
    </div>
  );
}
