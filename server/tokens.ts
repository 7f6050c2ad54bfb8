/** Unguessable URL-safe tokens for every row a URL names (DESIGN.md §3): 128 bits from the platform's CSPRNG. */
import { randomBytes } from 'node:crypto';

export function newToken(bytes = 16): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens are 16+ bytes of base64url; anything else is malformed before any lookup. */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
