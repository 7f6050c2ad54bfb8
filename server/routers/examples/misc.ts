/**
 * Example answers of the misc procedures' /api paths, one each, named after the procedure whose
 * declaration gives it (decision 036): docs/api.md shows them, tests/server/api-examples.test.ts holds them against
 * the live server.
 */

export const contact = { r: { ok: true } };

export const zip = { r: { city: 'New York', state_short: 'NY' } };
