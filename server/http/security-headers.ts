/**
 * The security headers every answer carries: the Content Security Policy and the usual hardening headers, the set
 * @fastify/helmet gave with our options, built once at start and set by one hook (decision 021: helmet rebuilt them on
 * every request, about a third of a small answer's work).
 */
import type { FastifyInstance } from 'fastify';

const POLICY: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  // fetch, the snapshot worker and the live tree's EventSource (/api/tree/{token}/events) all stay on this origin.
  // data: lets PixiJS's image worker read its built-in 1-pixel test picture (a data: URL sends nothing anywhere).
  'connect-src': ["'self'", 'data:'],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Where pictures come from when it is not this site: the origin of the media storage's public address (object storage
 * or a CDN in front of it, MEDIA_PUBLIC_URL), from the base its addresses start with; null for the server's /media/.
 */
export function mediaOriginOf(mediaUrlBase: string): string | null {
  return /^https?:\/\//.test(mediaUrlBase) ? new URL(mediaUrlBase).origin : null;
}

/**
 * The Content Security Policy; over https it also upgrades any plain-http address a page might hold. Pictures
 * linked at another origin (`mediaOrigin`) are allowed as images, and as fetches too: PixiJS's loader fetches the
 * thumbnails the tree draws (in a worker where it can) rather than loading them as images.
 */
export function contentSecurityPolicy(https: boolean, mediaOrigin: string | null = null): string {
  const extra: Record<string, string[]> = mediaOrigin ? { 'img-src': [mediaOrigin], 'connect-src': [mediaOrigin] } : {};
  const directives = Object.entries(POLICY).map(([name, sources]) =>
    [name, ...sources, ...(extra[name] ?? [])].join(' '),
  );
  if (https) directives.push('upgrade-insecure-requests');
  return directives.join(';');
}

/**
 * The embeddable view's own policy (/embed/, decision 046): any site may frame it (`frame-ancestors *`); it runs only
 * its own script and style sheet (no inline code), shows pictures from here or the media storage's public address,
 * and connects only here (the tree's event stream, the view itself again).
 */
export function embedContentSecurityPolicy(https: boolean, mediaOrigin: string | null = null): string {
  const directives = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    ['img-src', "'self'", 'data:', ...(mediaOrigin ? [mediaOrigin] : [])].join(' '),
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ];
  if (https) directives.push('upgrade-insecure-requests');
  return directives.join(';');
}

/** Which answers a header set is for: pages and answers of this site, pictures other sites may show, the embed. */
export type HeaderSet = 'site' | 'shared-picture' | 'embed';

/**
 * Every security header with its value, in the order they are sent. HSTS only when the site is served over https.
 * Pictures (/media/, the social cards) may be shown by other sites (`Cross-Origin-Resource-Policy: cross-origin`): the
 * embeddable view shows them from inside another site's sandboxed frame, whose origin is no one's, and a site that
 * takes the oEmbed answer shows its thumbnail. The embed itself replaces the CSP and leaves out X-Frame-Options.
 */
export function securityHeaders(
  https: boolean,
  mediaOrigin: string | null = null,
  set: HeaderSet = 'site',
): [name: string, value: string][] {
  const csp =
    set === 'embed' ? embedContentSecurityPolicy(https, mediaOrigin) : contentSecurityPolicy(https, mediaOrigin);
  return [
    ['content-security-policy', csp],
    ['cross-origin-opener-policy', 'same-origin'],
    ['cross-origin-resource-policy', set === 'site' ? 'same-origin' : 'cross-origin'],
    ['origin-agent-cluster', '?1'],
    ['referrer-policy', 'no-referrer'],
    ...(https ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as [string, string]] : []),
    ['x-content-type-options', 'nosniff'],
    ['x-dns-prefetch-control', 'off'],
    ['x-download-options', 'noopen'],
    ...(set === 'embed' ? [] : [['x-frame-options', 'SAMEORIGIN'] as [string, string]]),
    ['x-permitted-cross-domain-policies', 'none'],
    ['x-xss-protection', '0'],
  ];
}

/** The paths whose answers take another header set than the site's (securityHeaders), by how they begin. */
export const EMBED_PREFIX = '/embed/';
const SHARED_PICTURE_PREFIXES = ['/media/', '/card/'];

/** Sets the headers on every answer, before any route runs (so errors, not-found answers and media carry them too). */
export function useSecurityHeaders(server: FastifyInstance, https: boolean, mediaUrlBase: string): void {
  const mediaOrigin = mediaOriginOf(mediaUrlBase);
  const site = securityHeaders(https, mediaOrigin);
  const sharedPicture = securityHeaders(https, mediaOrigin, 'shared-picture');
  const embed = securityHeaders(https, mediaOrigin, 'embed');
  server.addHook('onRequest', (req, reply, done) => {
    const raw = reply.raw;
    const url = req.url;
    const headers = url.startsWith(EMBED_PREFIX)
      ? embed
      : SHARED_PICTURE_PREFIXES.some((prefix) => url.startsWith(prefix))
        ? sharedPicture
        : site;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}
