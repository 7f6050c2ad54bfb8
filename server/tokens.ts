/** Unguessable URL-safe tokens for every row a URL names (decision 005): 128 bits from the platform's CSPRNG. */
import { randomBytes } from 'node:crypto';

export function newToken(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}

/** A token that does not match is malformed, refused before any lookup. */
export { TOKEN_PATTERN } from '#shared/validation/common.ts';
