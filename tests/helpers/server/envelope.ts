/**
 * What every /api answer must look like (docs/api.md, Answers and errors): a JSON object with the one field r; on
 * failure r is {error: CODE, errors?: {field: [messages]}, message?: text} with the HTTP status of that code, and never
 * a stack trace, a file path or an internal error.
 */
import { expect } from 'vitest';
import { httpStatusOf, type ErrorCode } from '#shared/errors.ts';

export interface HttpAnswer {
  status: number;
  body: unknown;
}

/** A successful answer: 2xx and {r: payload}; returns the payload. */
export function expectSuccess(answer: HttpAnswer, status = 200): any {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toBeTypeOf('object');
  expect(Object.keys(answer.body as object)).toEqual(['r']);
  return (answer.body as { r: unknown }).r;
}

/** A failed answer with the given code: its status, the envelope, and only the fields of the error shape. */
export function expectFailure(
  answer: HttpAnswer,
  code: ErrorCode,
): { error: ErrorCode; errors?: Record<string, string[]>; message?: string } {
  expect(answer.status, JSON.stringify(answer.body)).toBe(httpStatusOf[code]);
  expect(Object.keys(answer.body as object)).toEqual(['r']);
  const r = (answer.body as { r: Record<string, unknown> }).r;
  expect(r.error).toBe(code);
  for (const key of Object.keys(r)) expect(['error', 'errors', 'message']).toContain(key);
  if (r.message !== undefined) expect(r.message).toBeTypeOf('string');
  if (r.errors !== undefined) {
    for (const messages of Object.values(r.errors as object)) {
      expect(Array.isArray(messages)).toBe(true);
      for (const message of messages as unknown[]) expect(message).toBeTypeOf('string');
    }
  }
  return r as never;
}

/** Signs of an internal leak: stack frames, source or module paths, Node's error names. */
const LEAKS = [
  /\n\s+at /,
  /\bat [\w.<>]+ \(/,
  /node_modules/,
  /file:\/\//,
  /\.tsx?:\d+/,
  /\/(?:work|home|tmp|usr)\//,
  /"stack"/,
  /SqliteError|SQLITE_|TypeError|ReferenceError/,
];

/** The text of an answer holds none of the leaks above (nor the test's data folder). */
export function leakIn(text: string, dataDir?: string): string | null {
  for (const pattern of LEAKS) if (pattern.test(text)) return `matches ${pattern}`;
  if (dataDir && text.includes(dataDir)) return 'names the data folder';
  return null;
}
