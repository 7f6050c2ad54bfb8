/** Inputs of the admin router, shared by the staff dashboard's forms and the server. */
import * as v from 'valibot';
import { REMOVAL_STATES } from '../admin-api.ts';
import { ACCOUNT_LIMITS, ART_LIMITS } from '../constants.ts';
import { Role } from '../domain.ts';
import { tokenSchema } from './common.ts';
import { optionalText, requiredText } from './rules.ts';

/** Staff's reason for requesting changes or declining a removal: required, at most 4095 characters. */
export const staffReasonSchema = v.object({ reason: requiredText('Reason', ART_LIMITS.description) });

export const byArtSchema = v.object({ artToken: tokenSchema });
export const byTokenSchema = v.object({ token: tokenSchema });
export const byUserSchema = v.object({ userToken: tokenSchema });

/**
 * A row's number (contact messages, reservations): at most what either engine stores, PostgreSQL's 32-bit integer,
 * so a larger one is refused as invalid input rather than sent in a query the database refuses.
 */
export const LARGEST_ID = 2_147_483_647;
const idSchema = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(LARGEST_ID));
export const byIdSchema = v.object({ id: idSchema });
export const byReservationSchema = v.object({ reservationId: idSchema });

/** Pages count from 1. */
const pageSchema = v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000)), 1);
export const pageOnlySchema = v.object({ page: pageSchema });

export const roleSchema = v.picklist([Role.Observer, Role.Artist, Role.Admin]);

export const usersQuerySchema = v.object({
  search: v.optional(optionalText(ACCOUNT_LIMITS.email), ''),
  role: v.optional(roleSchema),
  page: pageSchema,
});

export const setRoleSchema = v.object({ userToken: tokenSchema, role: roleSchema });

export const removalListSchema = v.optional(v.object({ state: v.optional(v.picklist(REMOVAL_STATES)) }), {});
export const messagesListSchema = v.optional(v.object({ handled: v.optional(v.boolean()) }), {});
