/**
 * CSRF (DESIGN.md §5): every page carries a token in <meta name="csrf-token">, the same value sits in an HttpOnly
 * cookie, and every mutating request (tRPC mutation or REST write) must echo it in X-CSRF-Token together with
 * X-Requested-With: XMLHttpRequest. A request from a foreign origin is refused whatever it carries. One hook covers
 * tRPC and REST alike.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const CSRF_COOKIE = 'csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type CsrfRefusal = 'foreign_origin' | 'missing_header' | 'bad_token';

/** The request's token, creating (and setting) one when the browser has none yet. */
export function ensureCsrfToken(req: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = req.cookies[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{32,64}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  reply.setCookie(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure });
  return token;
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Why this request must be refused, or null when it may go on. */
export function csrfRefusal(req: FastifyRequest, allowedOrigins: readonly string[]): CsrfRefusal | null {
  if (SAFE_METHODS.has(req.method)) return null;
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return 'foreign_origin';
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && !allowedOrigins.includes(origin)) {
    const own = `${req.protocol}://${req.host}`;
    if (origin !== own) return 'foreign_origin';
  }
  if (origin === 'null') return 'foreign_origin';
  if (req.headers['x-requested-with'] !== 'XMLHttpRequest') return 'missing_header';
  const sent = req.headers['x-csrf-token'];
  const expected = req.cookies[CSRF_COOKIE];
  if (typeof sent !== 'string' || !expected || !sameToken(sent, expected)) return 'bad_token';
  return null;
}
