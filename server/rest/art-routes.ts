/**
 * The art save (docs/api.md): multipart, in its own scope (the only one that parses the art's form), calling the service
 * the procedures call. The art's other paths are the art procedures' own (server/routers/art.ts, decision 036).
 */
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ART_LIMITS } from '#shared/constants.ts';
import { ErrorCode } from '#shared/errors.ts';
import { ART_MESSAGES } from '#shared/validation/art.ts';
import { AppError } from '../errors.ts';
import { contextOf } from '../http/request-context.ts';
import { checkArtSaveAccess, saveArt, type ArtSubmission, type ImageSlot } from '../services/art/index.ts';
import type { HandWrittenRoute } from '../trpc.ts';
import { answer, apiUrl } from './adapter.ts';
import * as examples from './examples.ts';
import { checkedBeforeTheBody, formReadError, largestBody, textOf, type FormLimits } from './multipart.ts';

/**
 * Saves the piece (the submitted fields): title, files[i], pictures[i] (tokens of pictures kept, by slot),
 * descriptions[i] (what each slot's picture shows, its alt text),
 * category, subject, style, year, medium[], materials[], width, height, depth, units, no_size, keywords[],
 * description, ai_use, and submit=1 from the wizard's final SUBMIT (send it to review).
 */
export const ART_SAVE: HandWrittenRoute = {
  method: 'POST',
  path: '/api/cell/:cellToken',
  who: 'owner or admin',
  does: "saves the piece (multipart: fields and up to 3 images; `submit=1` sends it to review); an AVAILABLE square with no piece is anyone signed-in's",
  via: '(service `saveArt`)',
  example: examples.artSave,
};

/** Generous for 4095 characters of any script (up to 4 bytes each in UTF-8), still far below a flood. */
const FIELD_BYTES = 20 * 1024;
const LIST_FIELDS = new Set(['medium', 'materials', 'keywords']);
const MAX_SLOTS = 10;
const FORM_LIMITS: FormLimits = {
  fileSize: ART_LIMITS.maxImageBytes,
  files: ART_LIMITS.maxImages,
  fields: 60,
  fieldSize: FIELD_BYTES,
  parts: 70,
};

export function registerArtRoutes(api: FastifyInstance): void {
  api.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: FORM_LIMITS });
    scope.route<{ Params: { cellToken: string } }>({
      method: ART_SAVE.method,
      url: apiUrl(ART_SAVE),
      // Who is sending, and may they save this square: asked before the pictures are read (decision 039).
      onRequest: checkedBeforeTheBody(largestBody(FORM_LIMITS), (req, reply) =>
        checkArtSaveAccess(contextOf(req, reply), req.auth?.user ?? null, req.params.cellToken),
      ),
      async handler(req, reply) {
        const submission = await readArtSubmission(req);
        return answer(await saveArt(contextOf(req, reply), req.auth?.user ?? null, req.params.cellToken, submission));
      },
    });
  });
}

/** `files[1]` → 1; `files` alone takes the next free slot. */
function slotIndex(
  name: string,
  prefix: 'files' | 'pictures' | 'descriptions',
  taken: readonly unknown[],
): number | null {
  if (name === prefix || name === `${prefix}[]`) {
    const next = taken.findIndex((slot) => slot === undefined);
    return next === -1 ? taken.length : next;
  }
  const match = new RegExp(`^${prefix}\\[(\\d{1,2})\\]$`).exec(name);
  return match ? Number(match[1]) : null;
}

/** Reads the multipart body into fields and image slots, turning the parser's limits into the form's messages. */
async function readArtSubmission(req: FastifyRequest): Promise<ArtSubmission> {
  if (!req.isMultipart()) throw new AppError(ErrorCode.BadRequest, 'Send the art as multipart/form-data.');
  const fields: Record<string, unknown> = {};
  const files: (Buffer | undefined)[] = [];
  const kept: (string | undefined)[] = [];
  const descriptions: (string | undefined)[] = [];
  let slot = -1;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        slot = slotIndex(part.fieldname, 'files', files) ?? -1;
        const bytes = await part.toBuffer();
        if (slot < 0 || slot >= MAX_SLOTS || (bytes.length === 0 && !part.filename)) continue;
        files[slot] = bytes;
        continue;
      }
      const value = textOf(part, part.fieldname.replace(/\[\]$/, ''));
      const pictureSlot = slotIndex(part.fieldname, 'pictures', kept);
      if (pictureSlot !== null) {
        if (pictureSlot < MAX_SLOTS && value !== '') kept[pictureSlot] = value;
        continue;
      }
      const describedSlot = slotIndex(part.fieldname, 'descriptions', descriptions);
      if (describedSlot !== null) {
        if (describedSlot < MAX_SLOTS) descriptions[describedSlot] = value;
        continue;
      }
      const name = part.fieldname.replace(/\[\]$/, '');
      if (LIST_FIELDS.has(name)) ((fields[name] ??= []) as string[]).push(value);
      else fields[name] ??= value;
    }
  } catch (error) {
    throw multipartError(error, slot);
  }
  const length = Math.max(files.length, kept.length, 1);
  const slots: ImageSlot[] = Array.from({ length }, (_, i) => {
    const file = files[i];
    const picture = kept[i];
    return file ? { file } : picture ? { picture } : null;
  });
  const submit = typeof fields.submit === 'string' && ['1', 'true', 'on'].includes(fields.submit);
  return { fields, slots, descriptions, submit };
}

function multipartError(error: unknown, slot: number): AppError {
  switch ((error as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(ErrorCode.PayloadTooLarge, ART_MESSAGES.imageTooBig, {
        [`files.${Math.max(slot, 0)}`]: [ART_MESSAGES.imageTooBig],
      });
    case 'FST_FILES_LIMIT':
      return new AppError(ErrorCode.ValidationFailed, ART_MESSAGES.tooManyImages, {
        files: [ART_MESSAGES.tooManyImages],
      });
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(ErrorCode.BadRequest, 'Send the art as multipart/form-data.');
    default:
      return formReadError(error, 'The upload could not be read.');
  }
}
