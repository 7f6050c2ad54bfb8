/**
 * What the two multipart forms (the art save and the profile update) share: the checks made before their body is
 * read, a text part's value as the form typed it, and the parser's limits turned into the form's errors.
 */
import type { MultipartValue } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import { ErrorCode } from '#shared/errors.ts';
import { MESSAGES, normalizeLineBreaks } from '#shared/validation/rules.ts';
import { AppError } from '../errors.ts';

/**
 * A text part's value. Browsers send a textarea's line breaks as CRLF in multipart bodies; the same text sent as JSON
 * (or typed in the field) has LF, so lengths are checked on LF to give one answer for one text.
 */
export function textOf(part: MultipartValue, field = part.fieldname): string {
  if (part.valueTruncated)
    throw new AppError(ErrorCode.PayloadTooLarge, 'A field is too long.', { [field]: [MESSAGES.invalid] });
  const value = typeof part.value === 'string' ? part.value : String(part.value);
  return normalizeLineBreaks(value);
}

/** The form-level answer to a parser error the caller did not map to one of its fields. */
export function formReadError(error: unknown, unreadable: string): AppError {
  if (error instanceof AppError) return error;
  switch ((error as { code?: string } | null)?.code) {
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError(ErrorCode.PayloadTooLarge, 'The form has too many fields.');
    default:
      return new AppError(ErrorCode.BadRequest, unreadable);
  }
}

/** The parser's limits of a form (busboy's names), from which the largest body it can take follows. */
export interface FormLimits {
  fileSize: number;
  files: number;
  fields: number;
  fieldSize: number;
  parts: number;
}

/** Room for one part's boundary and headers (busboy takes at most 16 KiB of a part's headers). */
const PART_HEAD_BYTES = 16 * 1024;

/** The largest body a form with these limits can be: every file and field full, every part's head at its largest. */
export function largestBody(limits: FormLimits): number {
  return limits.files * limits.fileSize + limits.fields * limits.fieldSize + limits.parts * PART_HEAD_BYTES;
}

/**
 * An upload route's onRequest hook (decision 039): `check` says who may send the form (it throws the refusal), and a
 * body declared longer than `maxBytes` is refused; both before a byte of the body is read. A refusal goes out at once
 * and closes the connection, so the rest of the upload is neither read nor waited for. A body without a declared
 * length is held to the parser's limits as it streams.
 */
export function checkedBeforeTheBody<R extends RouteGenericInterface>(
  maxBytes: number,
  check: (req: FastifyRequest<R>, reply: FastifyReply) => Promise<void>,
): (req: FastifyRequest<R>, reply: FastifyReply) => Promise<void> {
  return async (req, reply) => {
    try {
      await check(req, reply);
      if (Number(req.headers['content-length']) > maxBytes)
        throw new AppError(ErrorCode.PayloadTooLarge, 'The request is too large.');
    } catch (error) {
      reply.header('connection', 'close');
      throw error;
    }
  };
}
