import type { AdminPersonRef } from '#shared/admin-api.ts';

export const nameOf = (person: { firstname: string; lastname: string }): string =>
  `${person.firstname} ${person.lastname}`.trim();

export const personRef = (person: { token: string; firstname: string; lastname: string }): AdminPersonRef => ({
  token: person.token,
  name: nameOf(person),
});
