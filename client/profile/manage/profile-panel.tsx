/**
 * PROFILE of manage profile: the picture, where the member lives, BIO, EXHIBITIONS, EDUCATION, the URLs, PREVIEW
 * PROFILE and submit, checked with the shared schema first (docs/product.md, Limits). The server's answer fills the
 * form again, the current user is reloaded, and 'profileUpdated' shows for a few seconds.
 */
import { personName } from '#shared/people.ts';
import { useState } from 'react';
import { Link } from '#client/router/react.tsx';
import type { CurrentUser } from '#shared/api-types.ts';
import { PROFILE_LIMITS as L, TIMINGS } from '#shared/constants.ts';
import type { FullProfile } from '#shared/profile-api.ts';
import { profileSchema } from '#shared/validation/profile.ts';
import { trpc } from '#client/api/trpc.ts';
import { useReloadCurrentUser } from '#client/app/current-user.ts';
import { TextAreaField, TextField } from '#client/forms/fields.tsx';
import { useForm } from '#client/forms/use-form.ts';
import { messages } from '#client/locale/messages.ts';
import { SOCIAL_LINKS } from '../public/profile-links.tsx';
import { AvatarField } from './avatar-field.tsx';
import { PlaceFields } from './place-fields.tsx';
import { SaveActions } from './save-actions.tsx';
import { profileValues } from './profile-values.ts';
import { saveProfile } from './save-profile.ts';
import { profilePath } from '#shared/paths.ts';

export function ProfilePanel({ user }: { user: CurrentUser }) {
  const profile = trpc.user.fullProfile.useQuery({ token: user.token }, { retry: false, refetchOnWindowFocus: false });
  if (profile.isPending) return <p className="panel-status">Loading...</p>;
  if (profile.isError) {
    return (
      <p className="panel-status" role="alert">
        {messages.undefinedError}
      </p>
    );
  }
  return <ProfileForm user={user} profile={profile.data} />;
}

function ProfileForm({ user, profile }: { user: CurrentUser; profile: FullProfile }) {
  const utils = trpc.useUtils();
  const reloadCurrentUser = useReloadCurrentUser();
  const [avatar, setAvatar] = useState<Blob | null>(null);
  const [savedImage, setSavedImage] = useState(profile.image);
  const form = useForm({
    initialValues: profileValues(profile),
    schema: profileSchema,
    onSubmit: async (fields, { resetValues, showSuccess }) => {
      const saved = await saveProfile(user.token, fields, avatar);
      utils.user.fullProfile.setData({ token: user.token }, saved);
      resetValues(profileValues(saved));
      setSavedImage(saved.image);
      setAvatar(null);
      await reloadCurrentUser();
      showSuccess(messages.profileUpdated, TIMINGS.successMessageMs);
    },
  });

  return (
    <div className="panel-card">
      <div className="panel-card__heading">
        <div>
          <h2 className="panel-card__title">Your public profile</h2>
          <p className="panel-card__lead">What visitors see when they open your name.</p>
        </div>
        <Link to={profilePath(user.token)} className="button button--quiet" data-testid="preview-profile">
          PREVIEW PROFILE
        </Link>
      </div>
      <form className="form" onSubmit={form.handleSubmit} noValidate aria-label="Profile">
        <AvatarField savedImage={savedImage} name={personName(user)} pending={avatar} onPendingChange={setAvatar} />
        <fieldset className="form-fieldset">
          <legend className="form-fieldset__legend">Where you are</legend>
          <PlaceFields form={form} />
        </fieldset>
        <fieldset className="form-fieldset">
          <legend className="form-fieldset__legend">About you</legend>
          <TextAreaField form={form} name="description" label="Bio" maxLength={L.longText} rows={6} />
          <TextAreaField form={form} name="exhibitions" label="Exhibitions" maxLength={L.longText} />
          <TextAreaField form={form} name="education" label="Education" maxLength={L.longText} />
        </fieldset>
        <fieldset className="form-fieldset">
          <legend className="form-fieldset__legend">Links</legend>
          <TextField
            form={form}
            name="personal_url"
            label="Personal website"
            type="text"
            autoComplete="url"
            maxLength={L.url}
            placeholder="https://"
          />
          <div className="form-grid form-grid--two">
            {SOCIAL_LINKS.map(({ field, label }) => (
              <TextField key={field} form={form} name={field} label={label} maxLength={L.url} placeholder="https://" />
            ))}
          </div>
        </fieldset>
        <SaveActions form={form}>Save profile</SaveActions>
      </form>
    </div>
  );
}
