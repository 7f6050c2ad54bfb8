/**
 * The app behind proxies (decision 038): whose word a visitor's address is taken on, what the host check reads, a
 * warning when a proxy is plainly in front but not trusted, and how long a client may take to send its request.
 */
import type { ServerOptions } from 'node:http';
import { BlockList } from 'node:net';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { HttpTimeouts, TrustProxy } from '../config.ts';

/**
 * Fastify's trustProxy for TRUST_PROXY. A number of hops trusts the connection's address and the right-most entries
 * of X-Forwarded-For up to that count (each proxy appended the address it saw): the visitor's address is the next
 * one to the left, and whatever the visitor wrote further left is ignored. (Fastify's own `true` would take the
 * left-most entry, the visitor's own writing; its number form is switched off.) A list is passed as it is: only
 * proxies at those addresses are believed.
 */
export function fastifyTrustProxy(trust: TrustProxy): FastifyServerOptions['trustProxy'] {
  if (trust === false) return false;
  if (typeof trust === 'object') return [...trust];
  const hops = trust === true ? 1 : trust;
  return (_address: string, hop: number) => hop < hops;
}

/**
 * The host name the request was sent to, as the connection's Host header says: what a proxy in front guarantees
 * (nginx sends the visitor's Host as it is, and a request for another name never reaches this server block).
 * Never X-Forwarded-Host, which Fastify's `req.host` prefers once a proxy is trusted and which anyone can write.
 */
export function requestHost(req: FastifyRequest): string {
  return req.headers.host ?? '';
}

/** Addresses a proxy on this machine or the local network would connect from. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('169.254.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

function isPrivateAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (v4.includes('.')) return PRIVATE.check(v4, 'ipv4');
  return PRIVATE.check(address, 'ipv6');
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * With TRUST_PROXY off, a request that a private or loopback address forwarded (it says whom for) means a proxy is in
 * front that nobody told the app about: every visitor then counts as the proxy's one address, against every limit
 * per address (logins, streams, searches). Said once, at the first such request, not for each.
 */
export function warnOfUntrustedProxy(server: FastifyInstance): void {
  let warned = false;
  server.addHook('onRequest', async (req) => {
    if (warned) return;
    const header = FORWARDING_HEADERS.find((name) => req.headers[name] !== undefined);
    const from = req.socket.remoteAddress;
    if (header === undefined || from === undefined || !isPrivateAddress(from)) return;
    warned = true;
    req.log.warn(
      { from, header },
      `Requests come through a proxy at ${from} (they carry ${header}) but TRUST_PROXY is off: the whole site is ` +
        'being counted as one address, against every limit per address (sign-ins, live trees, searches). Set ' +
        'TRUST_PROXY (README, Behind nginx or a CDN). Said once.',
    );
  });
}

/**
 * Node's own limits for receiving a request, in Fastify's options: the headers within headersMs (checked every
 * few seconds, not every 30 as by default), the whole request within requestMs, and a connection with a request
 * in flight silent for idleMs is closed. None of them counts once a request is in: an event stream or a held
 * long-poll, a GET with no body, is never cut by them (the stream's comment every 20 s is well inside idleMs).
 */
export function serverTimeouts(timeouts: HttpTimeouts): {
  connectionTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  const checkEveryMs = Math.max(100, Math.min(5_000, Math.min(timeouts.headersMs, timeouts.bodyMs) / 4));
  return {
    connectionTimeout: timeouts.idleMs,
    requestTimeout: timeouts.requestMs,
    http: { headersTimeout: timeouts.headersMs, connectionsCheckingInterval: checkEveryMs },
  };
}

/**
 * A body that is not an upload (JSON or a form, at most 1 MiB) must arrive within bodyMs of its headers; Node's
 * requestTimeout, which must let a 50 MB upload through a slow line, is far longer. A multipart body is an upload:
 * only the upload routes take one (any other route refuses it with 415 before reading it). Past the deadline the
 * connection is closed: a client that sends half a body and stalls holds nothing for long.
 */
export function useBodyDeadline(server: FastifyInstance, bodyMs: number): void {
  server.addHook('onRequest', async (req) => {
    const raw = req.raw;
    if (raw.complete) return;
    const length = req.headers['content-length'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody || req.headers['content-type']?.toLowerCase().startsWith('multipart/form-data')) return;
    const deadline = setTimeout(() => {
      if (raw.complete || raw.destroyed) return;
      req.log.warn({ bodyMs }, 'request body not received in time: connection closed');
      // The connection goes, even after an answer (a refusal sent before the body was read: Node would go on
      // reading the rest to keep the connection). An injected request (tests) has a stand-in socket instead.
      const socket = raw.socket as Partial<Socket> | undefined;
      if (typeof socket?.destroy === 'function') socket.destroy();
      else raw.destroy();
    }, bodyMs);
    const done = () => clearTimeout(deadline);
    raw.once('end', done);
    raw.once('close', done);
  });
}
