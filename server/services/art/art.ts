/**
 * Art of a square (docs/product.md, Pieces (art); decision 009): who may edit it, the editor's data, saving (validate
 * everything, then write the files, then one transaction for the rows), and the details page.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { art, artLikes, artViews, pictures, users } from '#drizzle/tables.ts';
import type { ArtCellRef, ArtDetails, ArtForEdit } from '#shared/art-api.ts';
import { ArtStatus, CellStatus, isArtInProgress } from '#shared/domain.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { ErrorCode, type FieldErrors } from '#shared/errors.ts';
import {
  ART_MESSAGES,
  artFormSchema,
  checkPictureDescriptions,
  imageListErrors,
  type ArtFormValues,
} from '#shared/validation/art.ts';
import { write } from '../../db.ts';
import { AppError, fieldErrorsOfIssues } from '../../errors.ts';
import { isAdmin, mayEditArt, type Viewer } from '../../permissions.ts';
import { newToken } from '../../tokens.ts';
import { prepareArtImage, storedPictureColumns, writePreparedPictures } from '../media/index.ts';
import { editFacts, loadCellWithArt, type CellWithArt, readPictures, fieldsOf } from '../display/index.ts';
import { listActiveConnections } from './connections.ts';
import type { ServiceContext } from '../context.ts';
import type { PreparedPicture, StoredPicture } from '../media/index.ts';
import { openRemovalRequestOf } from './removal-requests.ts';
import { reserveSquareByToken, submitPiece, withHoldRefusals } from '../squares/index.ts';
import { LIMITS, checkRateLimit, hitRateLimit } from '../rate-limit.ts';
import { reindexArt } from '../search/index.ts';
import { recordCellChanges } from '../tree/index.ts';
import { ensureRoomForUpload } from '../../storage.ts';

/** A published piece with its author's name and main picture, for the preview of a shared link; null otherwise. */
export async function publishedPieceForSharing(ctx: Pick<ServiceContext, 'db' | 'media'>, cellToken: string) {
  const q = ctx.db;
  let piece;
  try {
    piece = (await loadCellWithArt(q, cellToken)).art;
  } catch {
    return null;
  }
  if (!piece || piece.status !== ArtStatus.Published) return null;
  const author = (
    await q
      .select({ firstname: users.firstname, lastname: users.lastname })
      .from(users)
      .where(eq(users.id, piece.authorId))
  )[0];
  return { piece, author, main: (await readPictures(q, piece.id, ctx.media.urlOf))[0] };
}

/** What the edit rule of server/permissions.ts looks at. */

const publicCell = ({ id: _id, treeId: _treeId, ...cell }: CellWithArt['cell']): ArtCellRef => cell;

/** art.forEdit: the wizard's data, or mayEdit false (the client sends the viewer to /forbidden). */
export async function getArtForEdit(ctx: ServiceContext, viewer: Viewer, cellToken: string): Promise<ArtForEdit> {
  const found = await loadCellWithArt(ctx.db, cellToken);
  const mayEdit = mayEditArt(viewer, editFacts(found));
  const piece = found.art;
  if (!mayEdit) return { cell: publicCell(found.cell), mayEdit, isNew: piece === null, art: null };
  return {
    cell: publicCell(found.cell),
    mayEdit,
    // A fresh reservation's draft has never been saved: the wizard says 'add.' until it has pictures.
    isNew: piece === null || (piece.status === ArtStatus.Draft && piece.title === ''),
    art: piece && {
      ...fieldsOf(piece),
      token: piece.token,
      status: piece.status,
      reviewNote: piece.status === ArtStatus.ChangesRequested ? piece.reviewNote : null,
      pictures: await readPictures(ctx.db, piece.id, ctx.media.urlOf),
      mainImageLocked: piece.status === ArtStatus.Published && !isAdmin(viewer),
    },
  };
}

/** One image slot of the form (files[i] or pictures[i]): a new file, an existing picture kept, or empty. */
export type ImageSlot = { file: Buffer } | { picture: string } | null;

export interface ArtSubmission {
  /** The text fields as sent (validated here with the shared schema). */
  fields: Record<string, unknown>;
  slots: ImageSlot[];
  /** What each slot's picture shows (descriptions[i], its alt text), by the same index as the slots; optional. */
  descriptions?: (string | undefined)[];
  /** The wizard's final SUBMIT sends submit=1 (review); without it the piece is saved as it is (draft stays draft). */
  submit: boolean;
}

const LOG_IN_TO_SAVE = 'Log in to upload art.';

/** The square and its piece, when the viewer may edit them; forbidden otherwise. */
async function editableCell(ctx: ServiceContext, viewer: NonNullable<Viewer>, cellToken: string): Promise<CellWithArt> {
  const found = await loadCellWithArt(ctx.db, cellToken);
  if (!mayEditArt(viewer, editFacts(found)))
    throw new AppError(ErrorCode.Forbidden, 'You may not edit the art of this square.');
  return found;
}

/**
 * The refusals of a save that need nothing of its form, in saveArt's order and words: a guest, an account whose saves
 * for the hour are used up (looked at, not counted), a square the viewer may not edit. The upload route asks them
 * before it reads a byte of the body (decision 039); saveArt asks them again, and counts the save.
 */
export async function checkArtSaveAccess(ctx: ServiceContext, viewer: Viewer, cellToken: string): Promise<void> {
  if (!viewer) throw new AppError(ErrorCode.Unauthenticated, LOG_IN_TO_SAVE);
  await checkRateLimit(ctx.db, ctx.clock.now(), LIMITS.artSavesPerUser, String(viewer.id));
  await editableCell(ctx, viewer, cellToken);
}

/**
 * A published piece's pictures are the ones staff reviewed (decision 042): its author may change their descriptions,
 * as any text, but not the pictures: no new one, none replaced, removed or moved. The main image keeps its own
 * refusal; an admin may change any of them.
 */
function refuseNewPictures(
  present: readonly { slot: NonNullable<ImageSlot>; index: number }[],
  existing: readonly { token: string }[],
): void {
  const mainSlot = present[0]!.slot;
  if ('file' in mainSlot || mainSlot.picture !== existing[0]?.token) {
    const message = 'The main image of a published piece can be changed only by us: contact us to change it.';
    throw new AppError(ErrorCode.MainImageLocked, message, { 'files.0': [message] });
  }
  const changed =
    present.find(({ slot }, i) => 'file' in slot || slot.picture !== existing[i]?.token) ??
    (present.length !== existing.length ? { index: present.length } : undefined);
  if (changed) {
    const message = ERROR_TEXT.pictures_locked;
    throw new AppError(ErrorCode.PicturesLocked, message, { [`files.${changed.index}`]: [message] });
  }
}

/**
 * POST /api/cell/{cellToken}: checks every field and image before anything is written, writes the image files,
 * then commits the rows in one transaction; if that fails, the files it wrote are taken back.
 */
export async function saveArt(
  ctx: ServiceContext,
  viewer: Viewer,
  cellToken: string,
  submission: ArtSubmission,
): Promise<ArtForEdit> {
  if (!viewer) throw new AppError(ErrorCode.Unauthenticated, LOG_IN_TO_SAVE);
  await hitRateLimit(ctx.db, ctx.clock.now(), LIMITS.artSavesPerUser, String(viewer.id));
  const found = await editableCell(ctx, viewer, cellToken);

  const currentYear = new Date(ctx.clock.now()).getUTCFullYear();
  const errors: FieldErrors = {};
  const parsed = v.safeParse(artFormSchema(currentYear), submission.fields);
  if (!parsed.success) Object.assign(errors, fieldErrorsOfIssues(parsed.issues));

  const existing = found.art ? await readPictures(ctx.db, found.art.id, ctx.media.urlOf) : [];
  for (const [key, message] of Object.entries(imageListErrors(submission.slots))) errors[key] = [message];
  const described = checkPictureDescriptions(submission.descriptions ?? []);
  for (const [key, message] of Object.entries(described.errors)) errors[key] = [message];
  const present = submission.slots.flatMap((slot, index) => (slot ? [{ slot, index }] : []));
  for (const { slot, index } of present) {
    if ('picture' in slot && !existing.some((p) => p.token === slot.picture))
      errors[`files.${index}`] ??= [ART_MESSAGES.imageBlank];
  }
  const prepared = new Map<number, PreparedPicture>();
  if (present.some(({ slot }) => 'file' in slot)) ensureRoomForUpload(ctx.media, ctx.config.minFreeBytes);
  if (present.length <= 3) {
    for (const { slot, index } of present) {
      if (!('file' in slot)) continue;
      const result = await prepareArtImage(slot.file);
      if ('error' in result) errors[`files.${index}`] ??= [result.error];
      else prepared.set(index, result);
    }
  }
  if (Object.keys(errors).length > 0 || !parsed.success) {
    throw new AppError(ErrorCode.ValidationFailed, 'Some fields are not valid.', errors);
  }

  if (found.art?.status === ArtStatus.Published && !isAdmin(viewer)) refuseNewPictures(present, existing);

  // The files go first and stay whatever the transaction decides (decision 044): a row never names a file not yet
  // written, and files no row names are the orphan sweep's after a day.
  const written = await writePreparedPictures(ctx, [...prepared.values()]);
  const storedByIndex = new Map([...prepared.keys()].map((index, i) => [index, written[i]!]));
  const plan = present.map(({ slot, index }): PicturePlan => {
    const description = described.values[index] ?? '';
    return slot && 'picture' in slot
      ? { keep: slot.picture, description }
      : { stored: storedByIndex.get(index)!, description };
  });
  await commitArt(ctx, viewer, cellToken, {
    values: parsed.output,
    plan,
    submit: submission.submit,
    reserveFirst: found.art === null,
  });
  return await getArtForEdit(ctx, viewer, cellToken);
}

type PicturePlan = ({ keep: string } | { stored: StoredPicture }) & { description: string };

interface ArtCommit {
  values: ArtFormValues;
  plan: PicturePlan[];
  submit: boolean;
  /** The square had no piece: it is reserved for the viewer in the same transaction (docs/product.md, Pieces (art)). */
  reserveFirst: boolean;
}

async function commitArt(
  ctx: ServiceContext,
  viewer: NonNullable<Viewer>,
  cellToken: string,
  { values, plan, submit, reserveFirst }: ArtCommit,
): Promise<void> {
  const now = ctx.clock.now();
  return withHoldRefusals(() =>
    write(ctx.db, async (tx) => {
      // A square with no piece is taken through the reservation rules first (one square a user at a time), inside
      // this transaction, so a save that fails below leaves no reservation or draft.
      if (reserveFirst) await reserveSquareByToken(tx, now, viewer, cellToken);
      // Read again inside the transaction: the reservation may have run out since the checks above.
      const found = await loadCellWithArt(tx, cellToken);
      const piece = found.art;
      if (!piece || !mayEditArt(viewer, editFacts(found)))
        throw new AppError(ErrorCode.Forbidden, 'You may not edit the art of this square.');

      const kept = plan.flatMap((p) => ('keep' in p ? [p.keep] : []));
      const current = await tx.select().from(pictures).where(eq(pictures.artId, piece.id));
      const gone = current.filter((p) => !kept.includes(p.token)).map((p) => p.id);
      if (gone.length) await tx.delete(pictures).where(inArray(pictures.id, gone));
      // Positions are unique per piece: move the kept ones out of the way before placing them.
      await tx
        .update(pictures)
        .set({ position: sql`${pictures.position} + 100` })
        .where(eq(pictures.artId, piece.id));
      let mainColor: number | null = piece.dominantColor;
      for (const [position, item] of plan.entries()) {
        const { description } = item;
        if ('keep' in item) {
          await tx
            .update(pictures)
            .set({ position, description })
            .where(and(eq(pictures.artId, piece.id), eq(pictures.token, item.keep)));
        } else {
          await tx.insert(pictures).values({
            token: newToken(),
            artId: piece.id,
            position,
            // A picture with more pixels than its large size is queued for its deep-zoom pyramid (decision 048): cut
            // when it is saved, not when published, since only now is the upload at hand, and its author sees the
            // piece while it waits for review.
            ...storedPictureColumns(item.stored),
            description,
            createdAt: now,
          });
          if (position === 0) mainColor = item.stored.dominantColor;
        }
      }

      await tx
        .update(art)
        .set({
          title: values.title,
          year: values.year,
          category: values.category,
          subject: values.subject,
          style: values.style,
          medium: values.medium,
          materials: values.materials,
          keywords: values.keywords,
          description: values.description,
          width: values.width,
          height: values.height,
          depth: values.depth,
          units: values.units,
          noSize: values.no_size,
          aiUse: values.ai_use,
          dominantColor: mainColor,
          updatedAt: now,
        })
        .where(eq(art.id, piece.id));
      if (submit && isArtInProgress(piece.status)) await submitPiece(tx, now, piece, found.cell);
      // The snapshot shows a published piece's colour and thumbnail, and search its text: both may have changed.
      if (piece.status === ArtStatus.Published || found.cell.status === CellStatus.Published)
        await recordCellChanges(tx, found.cell.treeId, [found.cell.id], now);
      await reindexArt(tx, piece.id);
    }),
  );
}

/** art.details: a published piece for everyone; the author and admins also see it before and after review. */
export async function getArtDetails(ctx: ServiceContext, viewer: Viewer, cellToken: string): Promise<ArtDetails> {
  const found = await loadCellWithArt(ctx.db, cellToken);
  const piece = found.art;
  const isAuthor = viewer !== null && piece !== null && piece.authorId === viewer.id;
  if (!piece || (piece.status !== ArtStatus.Published && !isAuthor && !isAdmin(viewer))) {
    throw new AppError(ErrorCode.ArtNotFound, 'This square has no published art.');
  }
  // The artist and the piece's activity in one read: on PostgreSQL each statement is a round trip.
  const { likes, reviews, ...author } = (
    await ctx.db
      .select({
        token: users.token,
        firstname: users.firstname,
        lastname: users.lastname,
        image: users.image,
        description: users.description,
        likes: sql`(select count(*) from ${artLikes} where ${artLikes.artId} = ${piece.id})`.mapWith(Number),
        reviews: sql`(select count(*) from ${artViews} where ${artViews.artId} = ${piece.id})`.mapWith(Number),
      })
      .from(users)
      .where(eq(users.id, piece.authorId))
  )[0]!;
  const pictureList = await readPictures(ctx.db, piece.id, ctx.media.urlOf);
  return {
    ...fieldsOf(piece),
    token: piece.token,
    status: piece.status,
    created_at: piece.createdAt,
    cell: publicCell(found.cell),
    pictures: pictureList,
    picture: pictureList[0] ? { thumb: pictureList[0].thumb } : null,
    author: { ...author, image: author.image ? ctx.media.urlOf(author.image) : null },
    activity: { likes, reviews },
    connections: await listActiveConnections(ctx.db, found.cell, piece.id, ctx.media.urlOf),
    mayEdit: mayEditArt(viewer, editFacts(found)),
    removalRequest: isAuthor ? await openRemovalRequestOf(ctx, piece.id) : null,
  };
}
