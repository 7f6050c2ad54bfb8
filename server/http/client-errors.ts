/**
 * Requests the HTTP parser refuses before any hook or route runs: a broken request line, a bad character in a
 * header, a header section over Node's limit, a request that did not arrive in time. Node (and Fastify after it)
 * would answer them with a bare status and a body of its own; here they are answered like every other refusal, in
 * the {"r": …} envelope with a code, with the security headers, never kept by a cache, and the connection closed.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { ErrorCode, httpStatusOf } from '#shared/errors.ts';
import { AppError } from '../errors.ts';
import { ok } from '../rest/adapter.ts';
import { securityHeaders } from './security-headers.ts';

/** The code a parser's refusal is answered with. */
function codeOf(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return ErrorCode.HeadersTooLarge;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ErrorCode.RequestTimeout;
  return ErrorCode.BadRequest;
}

/** Fastify's `clientErrorHandler`: writes the whole answer to the socket and ends it. */
export function clientErrorAnswer(https: boolean): (error: NodeJS.ErrnoException, socket: Socket) => void {
  const headers = securityHeaders(https).map(([name, value]) => `${name}: ${value}`);
  return (error, socket) => {
    // A connection the client already reset, or one whose answer has begun (Node marks it on the socket, and checks
    // it the same way before its own answer), has no room for another.
    const answering = (socket as Socket & { _httpMessage?: unknown })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering) {
      socket.destroy();
      return;
    }
    const code = codeOf(error);
    const status = httpStatusOf[code];
    const body = JSON.stringify(ok(new AppError(code, ERROR_TEXT[code]).toBody()));
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        'cache-control: no-store',
        'connection: close',
        ...headers,
        '',
        body,
      ].join('\r\n'),
    );
  };
}
