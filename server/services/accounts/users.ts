/** Reading users as the client may see them. */
import type { CurrentUser } from '#shared/api-types.ts';
import type { SessionUser } from '../../auth/sessions.ts';
import type { MediaUrlOf } from '../../storage/index.ts';

/** The signed-in user as the client sees them; their avatar's address made by the media storage (`ctx.media.urlOf`). */
export function toCurrentUser(user: SessionUser, urlOf: MediaUrlOf): CurrentUser {
  return {
    token: user.token,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    role: user.role,
    showEmail: user.showEmail,
    image: user.image ? urlOf(user.image) : null,
    createdAt: user.createdAt,
  };
}
