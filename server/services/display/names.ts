/** A person as staff screens name them: token and display name (the name itself by shared/people.ts). */
import { personName } from '#shared/people.ts';
import type { AdminPersonRef } from '#shared/admin-api.ts';

export const personRef = (person: { token: string; firstname: string; lastname: string }): AdminPersonRef => ({
  token: person.token,
  name: personName(person),
});
