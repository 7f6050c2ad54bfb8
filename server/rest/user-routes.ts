/**
 * The profile update with the avatar (docs/api.md): multipart, in its own scope (the only one that parses the profile's
 * form), calling the service `user.updateProfile` calls. The other profile and social paths are the user procedures'
 * own (server/routers/user-profile.ts, user-social.ts; decision 036).
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AVATAR_LIMITS, PROFILE_LIMITS } from '#shared/constants.ts';
import { ErrorCode } from '#shared/errors.ts';
import { AVATAR_MESSAGES } from '#shared/validation/profile.ts';
import { AppError } from '../errors.ts';
import { contextOf } from '../http/request-context.ts';
import { checkProfileSaveAccess, updateProfile } from '../services/accounts/index.ts';
import type { HandWrittenRoute } from '../trpc.ts';
import { answer, apiUrl } from './adapter.ts';
import * as examples from './examples.ts';
import { checkedBeforeTheBody, formReadError, largestBody, textOf, type FormLimits } from './multipart.ts';

/** The form's fields plus an optional `image` (the cropped avatar). */
export const PROFILE_SAVE: HandWrittenRoute = {
  method: 'POST',
  path: '/api/user/:token/profile',
  who: 'owner',
  does: 'saves the profile form (multipart, with an optional avatar)',
  via: '(service `updateProfile`)',
  example: examples.profileSave,
};

/** Room for 8192 characters of any script (up to 4 bytes each in UTF-8). */
const FIELD_BYTES = PROFILE_LIMITS.longText * 4 + 1024;
const FORM_LIMITS: FormLimits = {
  fileSize: AVATAR_LIMITS.maxBytes,
  files: 1,
  fields: 20,
  fieldSize: FIELD_BYTES,
  parts: 21,
};

export function registerUserRoutes(api: FastifyInstance): void {
  api.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: FORM_LIMITS });
    scope.route<{ Params: { token: string }; Body: unknown }>({
      method: PROFILE_SAVE.method,
      url: apiUrl(PROFILE_SAVE),
      // Who is sending, and is the profile theirs: asked before the form is read (decision 039).
      onRequest: checkedBeforeTheBody(largestBody(FORM_LIMITS), (req, reply) =>
        checkProfileSaveAccess(contextOf(req, reply), req.auth?.user ?? null, req.params.token),
      ),
      async handler(req, reply) {
        // A form without a file may also come as JSON; the service checks the fields either way.
        const { fields, image } = req.isMultipart()
          ? await readProfileForm(req)
          : { fields: req.body ?? {}, image: null };
        return answer(
          await updateProfile(contextOf(req, reply), req.auth?.user ?? null, req.params.token, fields, image),
        );
      },
    });
  });
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
