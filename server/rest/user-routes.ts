/**
 * The profile and social paths (docs/api.md): profiles, the multipart profile update with the avatar (its own scope,
 * the only one here that parses multipart), art lists, user likes and follows, the ZIP lookup. Each is a thin call of
 * the user and misc procedures or, for the multipart update, of the same service.
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AVATAR_LIMITS, PROFILE_LIMITS } from '#shared/constants.ts';
import { ErrorCode } from '#shared/errors.ts';
import { AVATAR_MESSAGES } from '#shared/validation/profile.ts';
import { AppError } from '../errors.ts';
import { contextOf } from '../http/request-context.ts';
import { updateProfile } from '../services/accounts/index.ts';
import { answer, callerFor } from './adapter.ts';
import { atelierCell, publishedCell, zipPlace } from './shapes.ts';
import { formReadError, textOf } from './multipart.ts';

type ByToken = { Params: { token: string } };
type LikePair = { Params: { userToken: string; otherToken: string } };
type FollowPair = { Params: { token: string; otherToken: string } };

/** Room for 8192 characters of any script (up to 4 bytes each in UTF-8). */
const FIELD_BYTES = PROFILE_LIMITS.longText * 4 + 1024;

export function registerUserRoutes(api: FastifyInstance): void {
  api.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: AVATAR_LIMITS.maxBytes, files: 1, fields: 20, fieldSize: FIELD_BYTES, parts: 21 },
    });
    /** POST /api/user/{token}/profile: the form's fields plus an optional `image` (the cropped avatar). */
    scope.post<ByToken & { Body: unknown }>('/user/:token/profile', async (req, reply) => {
      // A form without a file may also come as JSON; the service checks the fields either way.
      const { fields, image } = req.isMultipart()
        ? await readProfileForm(req)
        : { fields: req.body ?? {}, image: null };
      return answer(
        await updateProfile(contextOf(req, reply), req.auth?.user ?? null, req.params.token, fields, image),
      );
    });
  });

  api.get<ByToken>('/user/:token/profile', async (req, reply) =>
    answer(await callerFor(req, reply).user.profile({ token: req.params.token })),
  );
  api.get<ByToken>('/user/:token/fullprofile', async (req, reply) =>
    answer(await callerFor(req, reply).user.fullProfile({ token: req.params.token })),
  );
  api.get<ByToken>('/user/:token/art', async (req, reply) =>
    answer((await callerFor(req, reply).user.art({ token: req.params.token })).map(atelierCell)),
  );
  api.get<ByToken>('/user/:token/art/published', async (req, reply) =>
    answer((await callerFor(req, reply).user.publishedArt({ token: req.params.token })).map(publishedCell)),
  );

  api.get<LikePair>('/user/:userToken/like/:otherToken', async (req, reply) =>
    answer(await callerFor(req, reply).user.likeStatus(req.params)),
  );
  api.put<LikePair>('/user/:userToken/like/:otherToken', async (req, reply) =>
    answer(await callerFor(req, reply).user.like(req.params)),
  );
  api.delete<LikePair>('/user/:userToken/like/:otherToken', async (req, reply) =>
    answer(await callerFor(req, reply).user.unlike(req.params)),
  );

  api.get<ByToken>('/user/:token/follow', async (req, reply) =>
    answer(await callerFor(req, reply).user.following({ token: req.params.token })),
  );
  api.get<FollowPair>('/user/:token/follow/:otherToken', async (req, reply) =>
    answer(await callerFor(req, reply).user.followStatus(req.params)),
  );
  api.put<FollowPair>('/user/:token/follow/:otherToken', async (req, reply) =>
    answer(await callerFor(req, reply).user.follow(req.params)),
  );
  api.delete<FollowPair>('/user/:token/follow/:otherToken', async (req, reply) =>
    answer(await callerFor(req, reply).user.unfollow(req.params)),
  );

  api.get<{ Params: { zip: string } }>('/misc/zip/:zip', async (req, reply) =>
    answer(zipPlace(await callerFor(req, reply).misc.zip({ zip: req.params.zip }))),
  );
}

/** Reads the multipart form: text fields, and the `image` file (an empty, unnamed file part means none). */
async function readProfileForm(req: FastifyRequest): Promise<{ fields: Record<string, string>; image: Buffer | null }> {
  const fields: Record<string, string> = {};
  let image: Buffer | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'image' && (bytes.length > 0 || part.filename)) image = bytes;
        continue;
      }
      fields[part.fieldname] ??= textOf(part);
    }
  } catch (error) {
    throw multipartError(error);
  }
  return { fields, image };
}

function multipartError(error: unknown): AppError {
  switch ((error as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(ErrorCode.PayloadTooLarge, AVATAR_MESSAGES.tooBig, { image: [AVATAR_MESSAGES.tooBig] });
    case 'FST_FILES_LIMIT':
      return new AppError(ErrorCode.BadRequest, 'Send one image at most.');
    default:
      return formReadError(error, 'The form could not be read.');
  }
}
