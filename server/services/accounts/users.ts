/** Reading users as the client may see them. */
import type { CurrentUser } from '#shared/api-types.ts';
import type { SessionUser } from '../../auth/sessions.ts';
import { MEDIA_URL_PREFIX } from '../../media-store.ts';

export function toCurrentUser(user: SessionUser): CurrentUser {
  return {
    token: user.token,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    role: user.role,
    showEmail: user.showEmail,
    image: user.image ? MEDIA_URL_PREFIX + user.image : null,
    createdAt: user.createdAt,
  };
}
