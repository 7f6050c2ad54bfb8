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

/** Every security header with its value, in the order they are sent. HSTS only when the site is served over https. */
export function securityHeaders(https: boolean, mediaOrigin: string | null = null): [name: string, value: string][] {
  return [
    ['content-security-policy', contentSecurityPolicy(https, mediaOrigin)],
    ['cross-origin-opener-policy', 'same-origin'],
    ['cross-origin-resource-policy', 'same-origin'],
    ['origin-agent-cluster', '?1'],
    ['referrer-policy', 'no-referrer'],
    ...(https ? [['strict-transport-security', 'max-age=31536000; includeSubDomains'] as [string, string]] : []),
    ['x-content-type-options', 'nosniff'],
    ['x-dns-prefetch-control', 'off'],
    ['x-download-options', 'noopen'],
    ['x-frame-options', 'SAMEORIGIN'],
    ['x-permitted-cross-domain-policies', 'none'],
    ['x-xss-protection', '0'],
  ];
}

/** Sets the headers on every answer, before any route runs (so errors, not-found answers and media carry them too). */
export function useSecurityHeaders(server: FastifyInstance, https: boolean, mediaUrlBase: string): void {
  const headers = securityHeaders(https, mediaOriginOf(mediaUrlBase));
  server.addHook('onRequest', (_req, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}
