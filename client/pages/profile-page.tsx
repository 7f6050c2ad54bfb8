/**
 * The public profile, /profile/{token}: the name in lowercase as the title, picture, address line, links, likes and
 * followers with the toggles, the member's words, the published ART, and EDIT for the owner. Opens at the top. What
 * the member wrote is rendered as text; only http(s) URLs become links (decision 015).
 */
import { personName } from '#shared/people.ts';
import { useEffect } from 'react';
import { Link, useParams } from '#client/router/react.tsx';
import { ErrorCode } from '#shared/errors.ts';
import type { PublicProfile } from '#shared/profile-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { Avatar } from '#client/app/avatar.tsx';
import { useCurrentUser } from '#client/app/current-user.ts';
import { usePageTitle } from '#client/app/page-title.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { messages } from '#client/locale/messages.ts';
import { ProfileArt } from '#client/profile/public/profile-art.tsx';
import { PersonalUrl, SocialLinks } from '#client/profile/public/profile-links.tsx';
import { BackToTree } from '#client/ui/back-to-tree.tsx';
import { ProfileSocial } from '#client/profile/public/profile-social.tsx';
import { ReadMoreSection } from '#client/profile/public/read-more.tsx';
import { addressLine, memberSince } from '#client/profile/profile-text.ts';
import { normalizeLineBreaks } from '#shared/validation/rules.ts';
import '#client/profile/public/public-profile.css';

/** Codes that mean "no such member", answered with the friendly not-found message. */
const NOT_FOUND_CODES: readonly string[] = [ErrorCode.UserNotFound, ErrorCode.NotFound, ErrorCode.BadRequest];

export function ProfilePage() {
  const { token = '' } = useParams();
  const profile = trpc.user.profile.useQuery({ token }, { retry: false, refetchOnWindowFocus: false });
  const name = profile.data ? personName(profile.data).toLowerCase() : '';
  usePageTitle(name || 'profile.');

  useEffect(() => {
    window.scrollTo(0, 0);
  }, [token]);

  if (profile.isPending) {
    return (
      <section className="page page--wide profile-page">
        <p className="profile-page__status" aria-busy="true">
          Loading...
        </p>
      </section>
    );
  }
  if (profile.isError) {
    const code = errorBodyOf(profile.error)?.error;
    const missing = code !== undefined && NOT_FOUND_CODES.includes(code);
    return (
      <section className="page page--wide profile-page">
        <h1 className="page__title">profile.</h1>
        <p
          className="page__lead"
          role={missing ? undefined : 'alert'}
          data-testid={missing ? 'profile-not-found' : 'profile-load-failed'}
        >
          {missing ? 'We could not find this member. The link may be mistyped.' : messages.undefinedError}
        </p>
        <p>
          <BackToTree />
        </p>
      </section>
    );
  }
  return <ProfileBody key={profile.data.token} profile={profile.data} title={name} />;
}

function ProfileBody({ profile, title }: { profile: PublicProfile; title: string }) {
  const { user } = useCurrentUser();
  const address = addressLine(profile);
  return (
    <section className="page page--wide profile-page" data-testid="profile-page">
      <header className="profile-hero">
        <Avatar image={profile.image} name={personName(profile)} className="profile-hero__avatar" />
        <div className="profile-hero__text">
          <h1 className="page__title profile-hero__name" data-testid="profile-name">
            {title}
          </h1>
          {address && (
            <p className="profile-hero__address" data-testid="profile-address">
              {address}
            </p>
          )}
          {profile.email && (
            <p className="profile-hero__email" data-testid="profile-email">
              <a href={`mailto:${profile.email}`}>{profile.email}</a>
            </p>
          )}
          <PersonalUrl url={profile.personal_url} />
          <ProfileSocial profile={profile} />
          <SocialLinks profile={profile} />
          <p className="profile-hero__since" data-testid="profile-member-since">
            Member since {memberSince(profile.created_at)}
          </p>
          {user?.token === profile.token && (
            <p className="profile-hero__actions">
              <Link to="/profile?tab=profile" className="button" data-testid="profile-edit">
                EDIT
              </Link>
            </p>
          )}
        </div>
      </header>
      <section className="profile-section" data-testid="profile-bio">
        <h2 className="profile-section__title">Bio</h2>
        <p className="profile-section__text">
          {profile.description.trim() !== ''
            ? normalizeLineBreaks(profile.description)
            : 'This member has not written a bio yet.'}
        </p>
      </section>
      {profile.exhibitions.trim() !== '' && (
        <ReadMoreSection title="Exhibitions" text={profile.exhibitions} testId="profile-exhibitions" />
      )}
      {profile.education.trim() !== '' && (
        <ReadMoreSection title="Education" text={profile.education} testId="profile-education" />
      )}
      <ProfileArt token={profile.token} />
    </section>
  );
}
