/**
 * Saving the profile form: one multipart POST to /api/user/{token}/profile (docs/api.md), with the CSRF headers, of
 * the fields and any newly applied 300x300 JPEG as `image`. A refused save throws the answer's `r` (the app's error
 * body) and the HTTP status, which the form kit reads like a tRPC error.
 */
import type { FullProfile } from '#shared/profile-api.ts';
import type { ProfileOutput } from '#shared/validation/profile.ts';
import { apiHeaders } from '#client/api/initial-params.ts';

export class ProfileSaveError extends Error {
  constructor(
    readonly r: unknown,
    readonly status: number,
  ) {
    super('The profile was not saved.');
  }
}

export async function saveProfile(token: string, fields: ProfileOutput, avatar: Blob | null): Promise<FullProfile> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  if (avatar) body.append('image', avatar, 'avatar.jpg');
  const response = await fetch(`/api/user/${encodeURIComponent(token)}/profile`, {
    method: 'POST',
    headers: { ...apiHeaders(), Accept: 'application/json' },
    body,
    credentials: 'same-origin',
  });
  const answer = (await response.json().catch(() => null)) as { r?: unknown } | null;
  if (!response.ok || answer?.r === undefined) throw new ProfileSaveError(answer?.r, response.status);
  return answer.r as FullProfile;
}
