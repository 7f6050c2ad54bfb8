/** Schemas used across features: tokens and the like. */
import * as v from 'valibot';

/** Every token a URL carries: 16 to 64 URL-safe characters. */
export const tokenSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{16,64}$/, 'Malformed token.'));
