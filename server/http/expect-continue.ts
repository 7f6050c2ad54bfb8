/**
 * `Expect: 100-continue`: a client (curl, for any body over 1 KiB) asks whether to send its body. Node answers
 * "100 Continue" at once by itself, before any hook has looked at the request, so a guest's 50 MB upload would be
 * invited in and then refused. Here the request goes through its hooks first (the session, the guards, an upload's
 * own checks, decision 039), and only a request that passed them all is told to continue; a refused one gets its
 * refusal instead, and its body is never sent.
 */
import type { FastifyInstance } from 'fastify';

export function continueOnlyPastTheChecks(server: FastifyInstance): void {
  // With a listener, Node leaves the answer to it: the request is handled as any other, without the 100.
  server.server.on('checkContinue', (req, res) => server.server.emit('request', req, res));
  // preParsing runs after every onRequest hook and before the body is read.
  server.addHook('preParsing', async (req, reply, payload) => {
    if (req.headers.expect?.toLowerCase() === '100-continue' && !reply.raw.headersSent) reply.raw.writeContinue();
    return payload;
  });
}
