/** Shared by the profile tests: a valid profile form, a multipart body with an avatar, and a stored-state snapshot. */
import { asc, eq } from 'drizzle-orm';
import { follows, userLikes, users } from '#drizzle/tables.ts';
import type { Db } from '#server/db.ts';
import type { MediaStorage } from '#server/storage/index.ts';
import { storedFiles } from './media-files.ts';
import { artForm, type FormFile } from '../art-fixtures.ts';
import { oneRow } from '#tests/helpers/server/rows.ts';

/** Every field of a valid US profile, as the form sends them. */
export function validProfile(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    zipcode: '10001',
    country: 'US',
    city: 'New York',
    state: 'NY',
    description: 'I paint rivers at dusk.',
    exhibitions: 'Harbour Gallery, 2024',
    education: 'Evening classes',
    personal_url: 'https://rivers.example.org',
    fb_url: '',
    tw_url: '',
    tt_url: '',
    in_url: '',
    ...overrides,
  };
}

/** The multipart body of POST /api/user/{token}/profile: the fields, plus the avatar as `image` when given. */
export function profileForm(fields: Record<string, string>, image?: Omit<FormFile, 'field'>): FormData {
  return artForm(fields, image ? [{ ...image, field: 'image' }] : []);
}

/** Everything a profile, like or follow call could change, rows and files, to prove a refusal changed nothing. */
export async function profileState(db: Db, media: MediaStorage) {
  return {
    users: await db.select().from(users).orderBy(asc(users.id)),
    likes: await db.select().from(userLikes),
    follows: await db.select().from(follows),
    files: await storedFiles(media),
  };
}

export async function userRow(db: Db, id: number) {
  return await oneRow(db.select().from(users).where(eq(users.id, id)));
}
