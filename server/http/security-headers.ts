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

/** The Content Security Policy; over https it also upgrades any plain-http address a page might hold. */
export function contentSecurityPolicy(https: boolean): string {
  const directives = Object.entries(POLICY).map(([name, sources]) => `${name} ${sources.join(' ')}`);
  if (https) directives.push('upgrade-insecure-requests');
  return directives.join(';');
}

/** Every security header with its value, in the order they are sent. HSTS only when the site is served over https. */
export function securityHeaders(https: boolean): [name: string, value: string][] {
  return [
    ['content-security-policy', contentSecurityPolicy(https)],
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
export function useSecurityHeaders(server: FastifyInstance, https: boolean): void {
  const headers = securityHeaders(https);
  server.addHook('onRequest', (_req, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    done();
  });
}
