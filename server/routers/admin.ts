/**
 * admin: the staff dashboard's API (docs/product.md, Review and removal; decision 012). Every procedure is admin-only;
 * the rules live in server/services/review/review.ts and server/services/admin/*. Every mutation writes a staff_actions
 * row in its own transaction. Answer shapes are in shared/admin-api.ts.
 */
import * as v from 'valibot';
import type {
  AdminMessage,
  AdminOk,
  AdminOverview,
  AdminPage,
  AdminRemovalRequest,
  AdminReservation,
  AdminUser,
  PublishResult,
  QueueItem,
  RequestChangesResult,
  ReviewItem,
  StaffLogEntry,
} from '#shared/admin-api.ts';
import {
  byArtSchema,
  byIdSchema,
  byReservationSchema,
  byTokenSchema,
  byUserSchema,
  messagesListSchema,
  pageOnlySchema,
  removalListSchema,
  setRoleSchema,
  staffReasonSchema,
  usersQuerySchema,
} from '#shared/validation/admin.ts';
import {
  listMessages,
  markMessageHandled,
  getOverview,
  acceptRemoval,
  declineRemoval,
  listRemovalRequests,
  listActiveReservations,
  releaseReservationByStaff,
  disableUser,
  enableUser,
  listUsers,
  setRole,
} from '../services/admin/index.ts';
import { listStaffLog } from '../services/staff/index.ts';
import { getReviewItem, listReviewQueue, publishArt, requestChanges } from '../services/review/index.ts';
import { adminProcedure, router } from '../trpc.ts';

const noInput = v.optional(v.object({}), {});

export const adminRouter = router({
  overview: adminProcedure.input(noInput).query(({ ctx }): Promise<AdminOverview> => getOverview(ctx)),
  queue: adminProcedure.input(noInput).query(({ ctx }): Promise<QueueItem[]> => listReviewQueue(ctx)),
  reviewItem: adminProcedure
    .input(byArtSchema)
    .query(({ ctx, input }): Promise<ReviewItem> => getReviewItem(ctx, input.artToken)),
  publish: adminProcedure
    .input(byArtSchema)
    .mutation(({ ctx, input }): Promise<PublishResult> => publishArt(ctx, ctx.user, input.artToken)),
  requestChanges: adminProcedure
    .input(v.object({ ...byArtSchema.entries, ...staffReasonSchema.entries }))
    .mutation(({ ctx, input }): Promise<RequestChangesResult> =>
      requestChanges(ctx, ctx.user, input.artToken, input.reason),
    ),
  removalRequests: adminProcedure
    .input(removalListSchema)
    .query(({ ctx, input }): Promise<AdminRemovalRequest[]> => listRemovalRequests(ctx, input.state)),
  acceptRemoval: adminProcedure
    .input(byTokenSchema)
    .mutation(({ ctx, input }): Promise<AdminRemovalRequest> => acceptRemoval(ctx, ctx.user, input.token)),
  declineRemoval: adminProcedure
    .input(v.object({ ...byTokenSchema.entries, ...staffReasonSchema.entries }))
    .mutation(({ ctx, input }): Promise<AdminRemovalRequest> =>
      declineRemoval(ctx, ctx.user, input.token, input.reason),
    ),
  messages: adminProcedure
    .input(messagesListSchema)
    .query(({ ctx, input }): Promise<AdminMessage[]> => listMessages(ctx, input.handled)),
  markMessageHandled: adminProcedure
    .input(byIdSchema)
    .mutation(({ ctx, input }): Promise<AdminMessage> => markMessageHandled(ctx, ctx.user, input.id)),
  users: adminProcedure
    .input(usersQuerySchema)
    .query(({ ctx, input }): Promise<AdminPage<AdminUser>> => listUsers(ctx, input)),
  setRole: adminProcedure
    .input(setRoleSchema)
    .mutation(({ ctx, input }): Promise<AdminUser> => setRole(ctx, ctx.user, input.userToken, input.role)),
  disableUser: adminProcedure
    .input(byUserSchema)
    .mutation(({ ctx, input }): Promise<AdminUser> => disableUser(ctx, ctx.user, input.userToken)),
  enableUser: adminProcedure
    .input(byUserSchema)
    .mutation(({ ctx, input }): Promise<AdminUser> => enableUser(ctx, ctx.user, input.userToken)),
  reservations: adminProcedure
    .input(noInput)
    .query(({ ctx }): Promise<AdminReservation[]> => listActiveReservations(ctx)),
  releaseReservation: adminProcedure
    .input(byReservationSchema)
    .mutation(({ ctx, input }): Promise<AdminOk> => releaseReservationByStaff(ctx, ctx.user, input.reservationId)),
  staffLog: adminProcedure
    .input(pageOnlySchema)
    .query(({ ctx, input }): Promise<AdminPage<StaffLogEntry>> => listStaffLog(ctx, input.page)),
});
