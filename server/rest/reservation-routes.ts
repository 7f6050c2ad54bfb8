/** The reservation paths (docs/api.md), each a thin call of its tRPC procedure (server/routers/reservations.ts). */
import type { FastifyInstance } from 'fastify';
import { answer, callerFor } from './adapter.ts';
import { withReminder } from './shapes.ts';

type Body = Record<string, unknown>;

export function registerReservationRoutes(api: FastifyInstance): void {
  api.post<{ Params: { cellToken: string } }>('/cell/:cellToken/reserve', async (req, reply) =>
    answer(withReminder(await callerFor(req, reply).cell.reserve({ token: req.params.cellToken }))),
  );

  api.post<{ Body: Body }>('/branch/reserve', async (req, reply) => {
    const body = typeof req.body === 'object' && req.body !== null ? req.body : {};
    return answer(withReminder(await callerFor(req, reply).cell.reserveBranch(body as never)));
  });

  api.get<{ Params: { token: string } }>('/user/:token/reserve', async (req, reply) => {
    const held = await callerFor(req, reply).user.reservedCell({ token: req.params.token });
    return answer(held && withReminder(held));
  });

  api.get<{ Params: { cellToken: string; reserveId: string } }>(
    '/cell/:cellToken/reserve/:reserveId',
    async (req, reply) =>
      answer(
        withReminder(
          await callerFor(req, reply).cell.reservation({
            cellToken: req.params.cellToken,
            reminderToken: req.params.reserveId,
          }),
        ),
      ),
  );
  api.post<{ Params: { cellToken: string; reserveId: string } }>(
    '/cell/:cellToken/reserve/:reserveId',
    async (req, reply) =>
      answer(
        withReminder(
          await callerFor(req, reply).cell.extendReservation({
            cellToken: req.params.cellToken,
            reminderToken: req.params.reserveId,
          }),
        ),
      ),
  );

  api.post<{ Params: { cellToken: string } }>('/cell/:cellToken/subscribe/available', async (req, reply) =>
    answer(await callerFor(req, reply).cell.subscribe({ token: req.params.cellToken })),
  );
  api.post('/cell/subscribe/available', async (req, reply) => answer(await callerFor(req, reply).cell.subscribeAny()));
}
