/** Schemas used across features: tokens and the like. */
import * as v from 'valibot';

/** Every token a URL carries: 16 to 64 URL-safe characters (the server makes 22). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

export const tokenSchema = v.pipe(v.string(), v.regex(TOKEN_PATTERN, 'Malformed token.'));
