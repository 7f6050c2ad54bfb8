// The PostgreSQL schema's migrations (decision 037): `npm run db:generate-pg` after a change to drizzle/schema-pg.ts.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './drizzle/schema-pg.ts',
  out: './migrations-pg',
});
