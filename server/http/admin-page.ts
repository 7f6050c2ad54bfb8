/**
 * The staff dashboard's page, a second client entry (decision 013): /admin/dashboard and its tab paths serve the built
 * client/admin/index.html with the app's CSRF meta tag and initial parameters, to admins only; anyone else (a guest
 * included) is sent to the app's forbidden page, so the dashboard's code never reaches them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAdmin } from '../permissions.ts';
import { initialParams } from '../services/tree/index.ts';
import { ensureCsrfToken } from './csrf.ts';
import { createIndexRenderer } from './index-html.ts';

export const ADMIN_DASHBOARD_PATH = '/admin/dashboard';
export const FORBIDDEN_PATH = '/forbidden';

export function registerAdminPage(server: FastifyInstance): void {
  const { deps } = server;
  const render = createIndexRenderer(deps.config.clientDir, 'admin/index.html');

  const sendDashboard = async (req: FastifyRequest, reply: FastifyReply) => {
    // The answer depends on who asks, so no cache may keep it (a shared one least of all).
    reply.header('cache-control', 'no-store');
    if (!isAdmin(req.auth?.user ?? null)) return reply.redirect(FORBIDDEN_PATH, 302);
    const csrfToken = ensureCsrfToken(req, reply, deps.config.secureCookies);
    return reply.type('text/html; charset=utf-8').send(render(await initialParams(deps), csrfToken));
  };

  server.get(ADMIN_DASHBOARD_PATH, sendDashboard);
  server.get(`${ADMIN_DASHBOARD_PATH}/*`, sendDashboard);
}
