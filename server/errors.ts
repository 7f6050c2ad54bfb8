/**
 * Errors are values with codes (shared/errors.ts). Services throw AppError; the tRPC error formatter and the REST
 * adapter both turn any thrown value into the same ErrorBody, so the client shows the same text either way.
 */
import { TRPCError, StandardSchemaV1Error } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { ErrorCode, httpStatusOf, type ErrorBody, type FieldErrors } from '#shared/errors.ts';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors: FieldErrors | undefined;
  /** Seconds after which trying again makes sense (sent as Retry-After), for refusals that pass. */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message?: string, fieldErrors?: FieldErrors, retryAfter?: number) {
    super(message ?? code);
    this.code = code;
    this.fieldErrors = fieldErrors;
    this.retryAfter = retryAfter;
  }

  get status(): number {
    return httpStatusOf[this.code];
  }

  toBody(): ErrorBody {
    return {
      error: this.code,
      ...(this.fieldErrors ? { errors: this.fieldErrors } : {}),
      ...(this.message && this.message !== this.code ? { message: this.message } : {}),
    };
  }

  /** The TRPCError to throw from a procedure; the formatter reads this AppError back from its cause. */
  toTRPC(): TRPCError {
    return new TRPCError({ code: trpcCodeOf(this.code), message: this.message, cause: this });
  }
}

const TRPC_CODE: Partial<Record<ErrorCode, TRPC_ERROR_CODE_KEY>> = {
  bad_request: 'BAD_REQUEST',
  validation_failed: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  csrf_failed: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  tree_not_found: 'NOT_FOUND',
  cell_not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  rate_limited: 'TOO_MANY_REQUESTS',
  invalid_credentials: 'UNAUTHORIZED',
  invalid_reset_token: 'BAD_REQUEST',
  email_taken: 'CONFLICT',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  headers_too_large: 'BAD_REQUEST',
  request_timeout: 'TIMEOUT',
  method_not_allowed: 'METHOD_NOT_SUPPORTED',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  busy: 'SERVICE_UNAVAILABLE',
  cell_not_available: 'CONFLICT',
  already_reserved: 'CONFLICT',
  cell_taken: 'CONFLICT',
  outside_branch_area: 'BAD_REQUEST',
  slot_occupied: 'CONFLICT',
  slot_not_connected: 'CONFLICT',
  slot_too_connected: 'CONFLICT',
  reservation_not_found: 'NOT_FOUND',
  extension_not_allowed: 'CONFLICT',
  reservation_expired: 'CONFLICT',
  already_subscribed: 'CONFLICT',
  already_available: 'CONFLICT',
  art_not_found: 'NOT_FOUND',
  main_image_locked: 'FORBIDDEN',
  pictures_locked: 'FORBIDDEN',
  own_art: 'FORBIDDEN',
  connection_not_allowed: 'BAD_REQUEST',
  art_not_submitted: 'CONFLICT',
  removal_already_decided: 'CONFLICT',
  own_account: 'FORBIDDEN',
  user_not_found: 'NOT_FOUND',
  own_profile: 'FORBIDDEN',
  already_following: 'CONFLICT',
  not_following: 'CONFLICT',
};

export function trpcCodeOf(code: ErrorCode): TRPC_ERROR_CODE_KEY {
  return TRPC_CODE[code] ?? 'INTERNAL_SERVER_ERROR';
}

const CODE_OF_TRPC: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  BAD_REQUEST: ErrorCode.BadRequest,
  PARSE_ERROR: ErrorCode.BadRequest,
  UNAUTHORIZED: ErrorCode.Unauthenticated,
  FORBIDDEN: ErrorCode.Forbidden,
  NOT_FOUND: ErrorCode.NotFound,
  CONFLICT: ErrorCode.Conflict,
  TOO_MANY_REQUESTS: ErrorCode.RateLimited,
  PAYLOAD_TOO_LARGE: ErrorCode.PayloadTooLarge,
  SERVICE_UNAVAILABLE: ErrorCode.Busy,
  METHOD_NOT_SUPPORTED: ErrorCode.MethodNotAllowed,
  UNSUPPORTED_MEDIA_TYPE: ErrorCode.UnsupportedMediaType,
};

/**
 * What a refusal by tRPC itself says (a malformed body, the wrong method, a batch too large): our own words, since a
 * parser's message describes its internals and can echo what was sent.
 */
const MESSAGE_OF_TRPC_REFUSAL: Partial<Record<ErrorCode, string>> = {
  bad_request: 'The request could not be read.',
  not_found: 'No such procedure.',
  method_not_allowed: 'Call queries with GET and mutations with POST.',
  unsupported_media_type: 'Send the input as JSON.',
  payload_too_large: 'The request is too large.',
};

/** Field errors from a failed Standard Schema (valibot) parse: dotted path to messages. */
export function fieldErrorsOfIssues(issues: readonly { message: string; path?: readonly unknown[] }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key =
      (issue.path ?? [])
        .map((segment) => (typeof segment === 'object' && segment !== null && 'key' in segment ? segment.key : segment))
        .join('.') || '_';
    // The generic validator shows the first failing rule of a field (docs/product.md, Limits).
    errors[key] ??= [issue.message];
  }
  return errors;
}

/**
 * Any thrown value as an AppError; a write that failed for lack of disk space becomes insufficient_storage (507), one
 * the database gave up on because another writer held it too long becomes busy (503, try again in a second); other
 * unknown failures become a bare internal error (no stack, no message leak).
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseBusy(error)) {
    return new AppError(
      ErrorCode.Busy,
      'The gallery is very busy right now, and nothing was saved. Try again in a moment.',
      undefined,
      1,
    );
  }
  if (isOutOfSpace(error)) {
    outOfSpaceAt = Date.now();
    return new AppError(
      ErrorCode.InsufficientStorage,
      'The gallery has run out of storage space, so nothing was saved. Please try again later.',
    );
  }
  if (error instanceof TRPCError) {
    if (error.cause instanceof AppError) return error.cause;
    if (error.cause instanceof StandardSchemaV1Error) {
      return new AppError(
        ErrorCode.ValidationFailed,
        'Some fields are not valid.',
        fieldErrorsOfIssues(error.cause.issues),
      );
    }
    const code = CODE_OF_TRPC[error.code];
    return code ? new AppError(code, MESSAGE_OF_TRPC_REFUSAL[code]) : new AppError(ErrorCode.Internal);
  }
  if (error instanceof StandardSchemaV1Error) {
    return new AppError(ErrorCode.ValidationFailed, 'Some fields are not valid.', fieldErrorsOfIssues(error.issues));
  }
  return new AppError(ErrorCode.Internal);
}

/** What SQLite and the file system call a full disk (or a quota reached). */
const OUT_OF_SPACE = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);
let outOfSpaceAt = Number.NEGATIVE_INFINITY;

/** `error` and the errors it was caused by, nearest first (five at most: a driver's error inside a query's). */
export function* causesOf(error: unknown): Generator<Error & { code?: unknown; constraint?: unknown }> {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++)
    yield current;
}

/**
 * What the engines answer when a statement waited for another writer and gave up: SQLite's busy and locked (another
 * process held the file's write lock past busy_timeout), PostgreSQL's lock_not_available, serialization_failure and
 * deadlock_detected. Nothing of the failed transaction was kept, and the same request a moment later can succeed.
 */
const DATABASE_BUSY = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', '55P03', '40001', '40P01']);

/** Whether `error` (or an error it was caused by) is the database giving up on a wait for another writer. */
export function isDatabaseBusy(error: unknown): boolean {
  for (const { code } of causesOf(error)) if (typeof code === 'string' && DATABASE_BUSY.has(code)) return true;
  return false;
}

/** Whether `error` (or an error it was caused by) is a write that failed for lack of space. */
function isOutOfSpace(error: unknown): boolean {
  for (const { code } of causesOf(error)) if (typeof code === 'string' && OUT_OF_SPACE.has(code)) return true;
  return false;
}

/** When a write last failed for lack of space in this process (ms; -Infinity if never): server/storage.ts. */
export function lastOutOfSpaceAt(): number {
  return outOfSpaceAt;
}
