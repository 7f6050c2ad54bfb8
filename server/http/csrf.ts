/**
 * CSRF (decision 004): the page's <meta name="csrf-token"> and an HttpOnly cookie hold one token, which every tRPC
 * mutation and REST write must echo in X-CSRF-Token with X-Requested-With: XMLHttpRequest; a foreign origin is refused
 * whatever it carries. One hook covers tRPC and REST alike.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestHost } from './behind-a-proxy.ts';

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

/**
 * Why this request must be refused, or null when it may go on. An Origin, when sent, must be the site's own
 * (SITE_URL's), not whatever the request's Host says: a page on a host name made to resolve here (DNS rebinding)
 * would otherwise count as same-origin. The one exception is a Host that no page elsewhere can have, an IP address
 * or localhost (someone opening http://127.0.0.1:3000 while SITE_URL says localhost): its own origin is accepted.
 */
export function csrfRefusal(req: FastifyRequest, allowedOrigins: readonly string[]): CsrfRefusal | null {
  if (SAFE_METHODS.has(req.method)) return null;
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return 'foreign_origin';
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins.includes(origin)) {
    const host = requestHost(req);
    const unforgeable = isAddressOrLocalhost(hostnameOf(host));
    if (!unforgeable || origin !== `${req.protocol}://${host}`) return 'foreign_origin';
  }
  if (req.headers['x-requested-with'] !== 'XMLHttpRequest') return 'missing_header';
  const sent = req.headers['x-csrf-token'];
  const expected = req.cookies[CSRF_COOKIE];
  if (typeof sent !== 'string' || !expected || !sameToken(sent, expected)) return 'bad_token';
  return null;
}

/**
 * Whether a request's Host may be served (DNS rebinding): the site's own host name, or a host no rebinding can
 * forge because it is not a name at all or only ever names this machine (an IP address, localhost). A page on
 * another name that was made to resolve here is refused before it can read or write anything.
 */
export function servesHost(host: string | undefined, siteHostname: string): boolean {
  if (!host) return false;
  const name = hostnameOf(host);
  return name === siteHostname || isAddressOrLocalhost(name);
}

/** A Host header's name, lower-cased, without its port (an IPv6 address keeps its brackets). */
function hostnameOf(host: string): string {
  return (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '')).toLowerCase();
}

/** An IP address or localhost: names no DNS answer can move to this machine from a page elsewhere. */
function isAddressOrLocalhost(name: string): boolean {
  return name === 'localhost' || /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name);
}
