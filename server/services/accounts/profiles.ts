/**
 * Profiles: the public profile anyone may read, the form's data for its owner (or an admin), and saving the form with
 * an optional avatar: every field and the image checked before anything is written, then the avatar file, then the
 * row. Nothing is deleted, whether the commit fails or an older avatar is replaced: files no row names are the orphan
 * sweep's (decision 044).
 */
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { users } from '#drizzle/tables.ts';
import { ErrorCode, type FieldErrors } from '#shared/errors.ts';
import type { FullProfile, PublicProfile } from '#shared/profile-api.ts';
import { countryName } from '#shared/reference/countries.ts';
import { profileSchema } from '#shared/validation/profile.ts';
import { AppError, fieldErrorsOfIssues } from '../../errors.ts';
import { mayEditProfile, mayReadPrivateProfile, type Viewer } from '../../permissions.ts';
import { prepareAvatar, writeAvatar } from './avatars.ts';
import { LIMITS, checkRateLimit, hitRateLimit } from '../rate-limit.ts';
import type { ServiceContext } from '../context.ts';
import { followersOf, likesOfUser, memberByToken } from '../social/index.ts';
import { ensureRoomForUpload } from '../../storage.ts';
import type { MediaUrlOf } from '../../storage/index.ts';
import { write } from '../../db.ts';

type UserRow = typeof users.$inferSelect;

const imageUrl = (image: string | null, urlOf: MediaUrlOf) => (image ? urlOf(image) : null);

/** GET /api/user/{token}/profile: public; the e-mail only when the owner set show_email. */
export async function getPublicProfile(ctx: ServiceContext, token: string): Promise<PublicProfile> {
  const row = await memberByToken(ctx, token);
  return {
    token: row.token,
    firstname: row.firstname,
    lastname: row.lastname,
    role: row.role,
    image: imageUrl(row.image, ctx.media.urlOf),
    city: row.city,
    zipcode: row.zipcode,
    state: row.state,
    country: row.country,
    countryName: row.country ? countryName(row.country) : '',
    email: row.showEmail ? row.email : null,
    personal_url: row.personalUrl,
    fb_url: row.fbUrl,
    tw_url: row.twUrl,
    tt_url: row.ttUrl,
    in_url: row.inUrl,
    description: row.description,
    exhibitions: row.exhibitions,
    education: row.education,
    created_at: row.createdAt,
    activity: { likes: await likesOfUser(ctx, row.id), followers: await followersOf(ctx, row.id) },
  };
}

function fullProfileOf(row: UserRow, urlOf: MediaUrlOf): FullProfile {
  return {
    token: row.token,
    image: imageUrl(row.image, urlOf),
    zipcode: row.zipcode,
    country: row.country,
    city: row.city,
    state: row.state,
    description: row.description,
    exhibitions: row.exhibitions,
    education: row.education,
    personal_url: row.personalUrl,
    fb_url: row.fbUrl,
    tw_url: row.twUrl,
    tt_url: row.ttUrl,
    in_url: row.inUrl,
  };
}

/** GET /api/user/{token}/fullprofile: the owner, or an admin. */
export async function getFullProfile(ctx: ServiceContext, viewer: Viewer, token: string): Promise<FullProfile> {
  if (!mayReadPrivateProfile(viewer, token))
    throw new AppError(ErrorCode.Forbidden, 'You can only see your own profile form.');
  return fullProfileOf(await memberByToken(ctx, token), ctx.media.urlOf);
}

/** The viewer, when the profile is theirs; unauthenticated or forbidden otherwise. */
function profileOwner(viewer: Viewer, token: string): NonNullable<Viewer> {
  if (!viewer) throw new AppError(ErrorCode.Unauthenticated, 'Log in to change your profile.');
  if (!mayEditProfile(viewer, token)) throw new AppError(ErrorCode.Forbidden, 'You can only change your own profile.');
  return viewer;
}

/**
 * The refusals of a profile save that need nothing of its form, in updateProfile's order and words: a guest,
 * someone else's profile, an account whose saves for the hour are used up (looked at, not counted). The multipart
 * route asks them before it reads a byte of the body (decision 039); updateProfile asks them again, and counts the save.
 */
export async function checkProfileSaveAccess(ctx: ServiceContext, viewer: Viewer, token: string): Promise<void> {
  const owner = profileOwner(viewer, token);
  await checkRateLimit(ctx.db, ctx.clock.now(), LIMITS.profileSavesPerUser, String(owner.id));
}

/**
 * POST /api/user/{token}/profile (and user.updateProfile without an image): the owner only. `fields` are checked
 * here with the shared schema, so the multipart route and the procedure give the same field errors.
 */
export async function updateProfile(
  ctx: ServiceContext,
  viewer: Viewer,
  token: string,
  fields: unknown,
  image: Buffer | null,
): Promise<FullProfile> {
  const owner = profileOwner(viewer, token);
  await hitRateLimit(ctx.db, ctx.clock.now(), LIMITS.profileSavesPerUser, String(owner.id));
  const before = await memberByToken(ctx, token);

  const errors: FieldErrors = {};
  const parsed = v.safeParse(profileSchema, fields);
  if (!parsed.success) Object.assign(errors, fieldErrorsOfIssues(parsed.issues));
  if (image) ensureRoomForUpload(ctx.media, ctx.config.minFreeBytes);
  const avatar = image ? await prepareAvatar(image) : null;
  if (avatar && 'error' in avatar) errors.image = [avatar.error];
  if (!parsed.success || (avatar && 'error' in avatar)) {
    throw new AppError(ErrorCode.ValidationFailed, 'Some fields are not valid.', errors);
  }

  if (avatar) await writeAvatar(ctx.media, avatar);
  const p = parsed.output;
  const after = await write(ctx.db, async (tx) => {
    return (
      await tx
        .update(users)
        .set({
          zipcode: p.zipcode,
          country: p.country,
          city: p.city,
          state: p.state,
          description: p.description,
          exhibitions: p.exhibitions,
          education: p.education,
          personalUrl: p.personal_url,
          fbUrl: p.fb_url,
          twUrl: p.tw_url,
          ttUrl: p.tt_url,
          inUrl: p.in_url,
          ...(avatar ? { image: avatar.name } : {}),
          updatedAt: ctx.clock.now(),
        })
        .where(eq(users.id, before.id))
        .returning()
    )[0]!;
  });
  return fullProfileOf(after, ctx.media.urlOf);
}
