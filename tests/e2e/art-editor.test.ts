/**
 * The art editor in a real browser (decision 011): a new member takes a square next to a published piece
 * through the seven steps to review and publication and edits it again; bad inputs refused with their messages. The
 * image tile is in art-editor-image-tile.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { art, artLikes, connections, pictures, removalRequests, users } from '#drizzle/schema.ts';
import { ArtStatus, Role } from '#shared/domain.ts';
import { ART_MESSAGES } from '#shared/validation/art.ts';
import { MESSAGES } from '#shared/validation/rules.ts';
import { errorMessages } from '#client/locale/messages.ts';
import { publishArt, requestChanges } from '#server/services/review/review.ts';
import {
  THIS_YEAR,
  addKeywords,
  availableSquareNextToPublished,
  checkbox,
  chooseImage,
  fillCategoryStep,
  fillImageStep,
  fillSize,
  member,
  next,
  pieceOn,
  reserveAndOpenEditor,
  screenshot,
  stepIs,
  textOf,
  walkToDescription,
  type Member,
} from '../helpers/browser/art-editor-fixtures.ts';
import { LEAVE_EDITOR_QUESTION } from '#client/editor/leave-warning.ts';
import { useArtEditor } from '#tests/helpers/browser/art-editor.ts';
import { failedLoad } from '#tests/helpers/browser/harness.ts';
import { proxyRefusesAsTooLarge } from '#tests/helpers/browser/proxy.ts';

const studio = useArtEditor();

let author: Member;
/** The square the author fills, and the published neighbour it connects to. */
let square: { token: string; neighbourToken: string };

describe('the art editor', () => {
  it('walks a reserved square through the seven steps, submits two images, and shows the final screen', async () => {
    // A context of the author's own: they come back, still signed in, after other members took the file's page.
    author = await member(studio.gallery, studio.browser, 'Author');
    square = await availableSquareNextToPublished(studio.gallery);
    const { page } = author;
    await reserveAndOpenEditor(studio.gallery, author, square.token);
    await expect(page.locator('h1.page__title').textContent()).resolves.toBe('add.');
    const menu = await page.locator('.editor-steps__step').allTextContents();
    expect(menu.map((t) => t.replace(/^\d+/, ''))).toEqual([
      'IMAGE',
      'CATEGORY',
      'MEDIUM',
      'SIZE',
      'DESCRIPTION',
      'CONNECTION',
      'CONFIRM',
    ]);
    expect(await page.getByTestId('editor-back').count()).toBe(0);
    expect(await textOf(page, 'editor-next')).toBe('CONTINUE');

    // IMAGE: CONTINUE is refused until there is a title and a main image.
    await page.getByTestId('editor-next').click();
    await page.getByTestId('error-title').waitFor();
    expect(await textOf(page, 'error-title')).toBe(MESSAGES.blank('Title'));
    expect(await textOf(page, 'error-files.0')).toBe(ART_MESSAGES.imageBlank);
    expect(await textOf(page, 'step-title')).toBe('IMAGE');
    await fillImageStep(page, studio.file);
    // Each picture can be described for people who cannot see it; the main one is.
    await page
      .getByTestId('image-description-0')
      .fill('A water mill at dusk, its wheel still, lamps lit in two windows.');
    expect(await page.getByTestId('image-description-2').count()).toBe(0);
    // Each box is named after its picture in words, as a screen reader says it.
    for (const [slot, name] of ['Describe the main image', 'Describe the second image'].entries()) {
      expect(await page.getByRole('textbox', { name, exact: true }).getAttribute('data-testid')).toBe(
        `image-description-${slot}`,
      );
    }
    // Up to three images, with one empty slot kept.
    await page.getByTestId('image-slot-2').waitFor();
    expect(await page.getByTestId('image-preview-2').count()).toBe(0);
    await page.getByTestId('preview-image').waitFor();
    expect(await textOf(page, 'preview-title')).toBe('Evening by the Old Mill');
    await screenshot(page, 'editor-image');
    await next(page, 'CATEGORY');

    // CATEGORY: years from this year back 100.
    const years = await page
      .getByTestId('field-year')
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(years.slice(1)).toEqual(Array.from({ length: 101 }, (_, i) => String(THIS_YEAR - i)));
    await page.getByTestId('editor-next').click();
    expect(await textOf(page, 'error-category')).toBe(MESSAGES.blank('Category'));
    await fillCategoryStep(page);
    await next(page, 'MEDIUM');

    // MEDIUM: Digital sets materials to Not Applicable.
    await checkbox(page, 'medium', 'Digital').check();
    await expect(checkbox(page, 'materials', 'Not Applicable').isChecked()).resolves.toBe(true);
    await next(page, 'SIZE');

    // SIZE: first visit with Digital presets no size, which hides the dimensions.
    await expect(page.getByTestId('field-no_size').isChecked()).resolves.toBe(true);
    expect(await page.getByTestId('dimensions').count()).toBe(0);
    await page.getByTestId('editor-back').click();
    await stepIs(page, 'MEDIUM');
    // Unticking Digital takes back the Not Applicable it ticked.
    await checkbox(page, 'medium', 'Digital').uncheck();
    await expect(checkbox(page, 'materials', 'Not Applicable').isChecked()).resolves.toBe(false);
    await checkbox(page, 'medium', 'Oil').check();
    await checkbox(page, 'materials', 'Canvas').check();
    await next(page, 'SIZE');
    // Not the first visit any more: the choice stays as it was.
    await expect(page.getByTestId('field-no_size').isChecked()).resolves.toBe(true);
    await page.getByTestId('field-no_size').uncheck();
    await fillSize(page);
    expect(await textOf(page, 'depth-note')).toBe('For flat artwork use .01 as depth.');
    await screenshot(page, 'editor-size');
    const rect = (await page.getByTestId('size-rect').boundingBox())!;
    expect(rect.width / rect.height).toBeCloseTo(24 / 18, 1);
    // Ticking no size empties the dimensions.
    await page.getByTestId('field-no_size').check();
    expect(await page.getByTestId('dimensions').count()).toBe(0);
    await page.getByTestId('field-no_size').uncheck();
    await expect(page.getByTestId('field-width').inputValue()).resolves.toBe('');
    await page.getByTestId('editor-next').click();
    expect(await textOf(page, 'error-width')).toBe(MESSAGES.blank('Width'));
    await fillSize(page);
    await next(page, 'DESCRIPTION');

    // DESCRIPTION: keywords split on commas, duplicates ignored; description and AI use required.
    await addKeywords(page, 'dusk, river, Dusk');
    await addKeywords(page, 'mill');
    await expect(page.getByTestId('keyword').allTextContents()).resolves.toEqual(['dusk×', 'river×', 'mill×']);
    // A keyword typed but never entered is added when the box is left (here for CONTINUE), not lost.
    await page.getByTestId('keyword-input').fill('pond');
    await page.getByTestId('editor-next').click();
    await expect(page.getByTestId('keyword').allTextContents()).resolves.toEqual(['dusk×', 'river×', 'mill×', 'pond×']);
    await expect(page.getByTestId('keyword-input').inputValue()).resolves.toBe('');
    expect(await textOf(page, 'error-description')).toBe(MESSAGES.blank('Description'));
    expect(await textOf(page, 'error-ai_use')).toBe(MESSAGES.blank('AI use'));
    await page.getByTestId('field-description').fill('The mill pond at dusk, painted from the bridge.');
    await page.getByTestId('field-ai_use').getByLabel('No AI used').check();
    await next(page, 'CONNECTION');

    // CONNECTION: a ticked neighbour needs its description.
    await page.getByTestId('connection').first().waitFor();
    const toggles = page.getByTestId('connection-toggle');
    expect(await toggles.count()).toBeGreaterThan(0);
    await toggles.first().check();
    await page.getByTestId('editor-next').click();
    await page.getByTestId('error-connections.0.description').waitFor();
    expect(await textOf(page, 'error-connections.0.description')).toBe(ART_MESSAGES.connectionDescription);
    await page.getByTestId('field-connections.0.description').fill('The same river runs through both pieces.');
    await screenshot(page, 'editor-connection');
    await next(page, 'CONFIRM');

    // CONFIRM: EDIT returns to a step; the menu brings the artist back. The buttons' capitals are in their text.
    expect(await page.getByTestId('summary-SIZE').textContent()).toContain('24 x 18 x .01 in');
    const editButtons = page.locator('button[data-testid^="edit-"]');
    await expect(editButtons.evaluateAll((buttons) => buttons.map((b) => b.firstChild?.textContent))).resolves.toEqual(
      Array(6).fill('EDIT'),
    );
    await expect(page.getByRole('button', { name: 'EDIT category', exact: true }).count()).resolves.toBe(1);
    expect(await textOf(page, 'editor-next')).toBe('SUBMIT');
    expect(await textOf(page, 'editor-back')).toBe('< BACK');
    await page.getByTestId('edit-CATEGORY').click();
    await stepIs(page, 'CATEGORY');
    await page.getByTestId('step-menu-CONFIRM').click();
    await stepIs(page, 'CONFIRM');
    await screenshot(page, 'editor-confirm');
    await page.getByTestId('editor-next').click();
    await page.getByTestId('editor-done').waitFor();
    expect(await textOf(page, 'editor-done')).toContain('HUGE CONGRATS ON SHARING YOUR MASTERPIECE!');
    await screenshot(page, 'editor-done');

    const piece = pieceOn(studio.gallery, square.token);
    expect(piece.status).toBe(ArtStatus.Submitted);
    expect(piece.title).toBe('Evening by the Old Mill');
    expect(studio.dbOf().select({ n: count() }).from(pictures).where(eq(pictures.artId, piece.id)).get()!.n).toBe(2);
    const saved = studio.dbOf().select().from(connections).where(eq(connections.artId, piece.id)).all();
    expect(saved.map((c) => c.description)).toEqual(['The same river runs through both pieces.']);
    expect(studio.dbOf().select({ role: users.role }).from(users).where(eq(users.id, author.userId)).get()!.role).toBe(
      Role.Artist,
    );

    // The author sees the piece waiting for review.
    await page.getByTestId('editor-return').click();
    await page.goto(`${studio.gallery.url}/observe/cell/${square.token}/details`);
    await page.getByTestId('art-status').waitFor();
    expect(await textOf(page, 'art-status')).toContain('waiting for review');
    expect(author.errors).toEqual([]);
  });

  it('once published, shows a visitor the piece with its connection; they like it and their view counts once', async () => {
    const { db } = studio.gallery.app.deps;
    const admin = db
      .select({ id: users.id, role: users.role, token: users.token })
      .from(users)
      .where(eq(users.role, Role.Admin))
      .get()!;
    const piece = pieceOn(studio.gallery, square.token);
    await publishArt(studio.gallery.app.deps, admin, piece.token);

    const visitor = await member(studio.gallery, studio.tab, 'Visitor');
    const { page } = visitor;
    const viewsBefore = studio.viewsOf(piece.id);
    await page.goto(`${studio.gallery.url}/observe/cell/${square.token}/details`);
    await page.getByTestId('art-title').waitFor();
    expect(await textOf(page, 'art-title')).toContain('Evening by the Old Mill');
    expect(await page.getByTestId('art-status').count()).toBe(0);
    const connection = page.getByTestId('art-connection');
    expect(await connection.count()).toBe(1);
    expect(await connection.textContent()).toContain('The same river runs through both pieces.');
    await expect(connection.getByRole('link').getAttribute('href')).resolves.toBe(
      `/observe/cell/${square.neighbourToken}/details`,
    );
    expect(await page.getByTestId('art-thumb').count()).toBe(2);
    // The artist's description is the main picture's text alternative; the second, undescribed, says which it is.
    await expect(page.getByTestId('art-main-image').getAttribute('alt')).resolves.toBe(
      'A water mill at dusk, its wheel still, lamps lit in two windows.',
    );
    await page.getByTestId('art-thumb').nth(1).click();
    await expect(page.getByTestId('art-main-image').getAttribute('alt')).resolves.toBe(
      'Evening by the Old Mill, picture 2 of 2',
    );
    await page.getByTestId('art-thumb').nth(0).click();

    await page.getByTestId('art-like-toggle').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="art-likes-count"]')?.textContent === '1');
    await expect
      .poll(() => db.select({ n: count() }).from(artLikes).where(eq(artLikes.artId, piece.id)).get()!.n)
      .toBe(1);

    await expect.poll(() => studio.viewsOf(piece.id)).toBe(viewsBefore + 1);
    await page.reload();
    await page.getByTestId('art-title').waitFor();
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="art-reviews-count"]')?.textContent === String(n),
      viewsBefore + 1,
    );
    expect(studio.viewsOf(piece.id)).toBe(viewsBefore + 1);
    expect(visitor.errors).toEqual([]);
  });

  it('lets the author request the removal of their piece, and then shows the request as pending', async () => {
    const { page } = author;
    const piece = pieceOn(studio.gallery, square.token);
    await page.goto(`${studio.gallery.url}/observe/cell/${square.token}/details`);
    await page.getByTestId('art-request-removal').click();
    const dialog = page.getByTestId('art-removal-dialog');
    await dialog.waitFor();
    await page.getByTestId('art-removal-reason').fill('I am selling the original and would rather it came down.');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await page.getByTestId('art-removal-pending').waitFor();
    const stored = studio.gallery.app.deps.db
      .select()
      .from(removalRequests)
      .where(eq(removalRequests.artId, piece.id))
      .all();
    expect(stored.map((r) => [r.state, r.reason])).toEqual([
      ['open', 'I am selling the original and would rather it came down.'],
    ]);
    await page.reload();
    await page.getByTestId('art-removal-pending').waitFor();
    await screenshot(page, 'details-removal');
    expect(await page.getByTestId('art-request-removal').count()).toBe(0);
    expect(author.errors).toEqual([]);
  });
});

describe('editing a piece again', () => {
  it('keeps a published piece’s images locked for its author, and saves new text', async () => {
    const { page } = author;
    await page.goto(`${studio.gallery.url}/observe/cell/${square.token}/edit`);
    await stepIs(page, 'IMAGE');
    await expect(page.locator('h1.page__title').textContent()).resolves.toBe('edit.');
    await page.getByTestId('main-image-locked').waitFor();
    // Every image it has stays as staff reviewed it, and no empty slot offers a new one (decision 042).
    const shown = await page.locator('[data-testid^="image-slot-"]').count();
    const { id } = pieceOn(studio.gallery, square.token);
    const stored = studio.gallery.app.deps.db.select({ n: count() }).from(pictures).where(eq(pictures.artId, id)).get()!
      .n;
    expect([shown, stored > 1]).toEqual([stored, true]);
    for (let index = 0; index < 3; index++) {
      expect(await page.getByTestId(`image-input-${index}`).count()).toBe(0);
      expect(await page.getByTestId(`image-remove-${index}`).count()).toBe(0);
    }
    await page.getByTestId('field-title').fill('Evening by the New Mill');
    await page.getByTestId('step-menu-CONFIRM').click();
    await stepIs(page, 'CONFIRM');
    await page.getByTestId('editor-next').click();
    await page.getByTestId('editor-done').waitFor();
    const piece = pieceOn(studio.gallery, square.token);
    expect([piece.title, piece.status]).toEqual(['Evening by the New Mill', ArtStatus.Published]);
    expect(author.errors).toEqual([]);
  });

  it('shows staff’s reason at the top of a piece sent back for changes, and sends it to review again', async () => {
    const artist = await member(studio.gallery, studio.tab, 'Resubmitter');
    const { page } = artist;
    const cellToken = (await availableSquareNextToPublished(studio.gallery)).token;
    await reserveAndOpenEditor(studio.gallery, artist, cellToken);
    await walkToDescription(page, studio.file);
    await addKeywords(page, 'harbour');
    await page.getByTestId('field-description').fill('Boats at rest.');
    await page.getByTestId('field-ai_use').getByLabel('Made with AI assistance').check();
    await next(page, 'CONNECTION');
    await next(page, 'CONFIRM');
    await page.getByTestId('editor-next').click();
    await page.getByTestId('editor-done').waitFor();

    const { db } = studio.gallery.app.deps;
    const admin = db
      .select({ id: users.id, role: users.role, token: users.token })
      .from(users)
      .where(eq(users.role, Role.Admin))
      .get()!;
    await requestChanges(
      studio.gallery.app.deps,
      admin,
      pieceOn(studio.gallery, cellToken).token,
      'Please add a picture of the whole piece, frame included.',
    );

    await page.goto(`${studio.gallery.url}/observe/cell/${cellToken}/edit`);
    await page.getByTestId('review-note').waitFor();
    expect(await textOf(page, 'review-note')).toContain('Please add a picture of the whole piece, frame included.');
    await expect(page.locator('h1.page__title').textContent()).resolves.toBe('edit.');
    await chooseImage(page, 2, studio.file('mill.png'));
    await page.getByTestId('step-menu-CONFIRM').click();
    await stepIs(page, 'CONFIRM');
    expect(await page.getByTestId('summary-DESCRIPTION').textContent()).toContain('Made with AI assistance');
    await page.getByTestId('editor-next').click();
    await page.getByTestId('editor-done').waitFor();
    const piece = pieceOn(studio.gallery, cellToken);
    expect(piece.status).toBe(ArtStatus.Submitted);
    expect(db.select({ n: count() }).from(pictures).where(eq(pictures.artId, piece.id)).get()!.n).toBe(3);
    expect(artist.errors).toEqual([]);
  });
});

/** A DataTransfer made in the page holding one file of `name` and `type` with the bytes of `filePath`, as a drag from the desktop carries. */

describe('bad input in the editor', () => {
  it('refuses a text file renamed .png, an 11th keyword and a 49-character keyword with the server’s messages', async () => {
    const artist = await member(studio.gallery, studio.tab, 'Careful');
    const { page } = artist;
    const cellToken = (await availableSquareNextToPublished(studio.gallery)).token;
    await reserveAndOpenEditor(studio.gallery, artist, cellToken, 'prompt');

    await page.getByTestId('image-input-0').setInputFiles(studio.file('notes.png'));
    await page.getByTestId('error-files.0').waitFor();
    expect(await textOf(page, 'error-files.0')).toBe(ART_MESSAGES.imageType);
    expect(await page.getByTestId('image-preview-0').count()).toBe(0);

    await walkToDescription(page, studio.file);
    await addKeywords(page, Array.from({ length: 10 }, (_, i) => `word${i + 1}`).join(','));
    expect(await page.getByTestId('keyword').count()).toBe(10);
    await addKeywords(page, 'word11');
    expect(await textOf(page, 'error-keywords')).toBe(ART_MESSAGES.tooManyKeywords);
    expect(await page.getByTestId('keyword').count()).toBe(10);
    await page.getByTestId('keyword').first().getByRole('button').click();
    await addKeywords(page, 'k'.repeat(49));
    expect(await textOf(page, 'error-keywords')).toBe(ART_MESSAGES.keywordTooLong);
    expect(await page.getByTestId('keyword').count()).toBe(9);

    // Nothing was sent: the draft has no pictures and no title. The close button goes back to the tree.
    const piece = pieceOn(studio.gallery, cellToken);
    expect(piece.title).toBe('');
    expect(
      studio.gallery.app.deps.db.select({ n: count() }).from(pictures).where(eq(pictures.artId, piece.id)).get()!.n,
    ).toBe(0);
    // Leaving with entries asks first: declined, the editor stays as it was; accepted, the close button leaves.
    const questions: string[] = [];
    page.once('dialog', (dialog) => void (questions.push(dialog.message()), dialog.dismiss()));
    await page.getByTestId('editor-close').click();
    await expect.poll(() => questions).toEqual([LEAVE_EDITOR_QUESTION]);
    expect(new URL(page.url()).pathname).toBe(`/observe/cell/${cellToken}/edit`);
    expect(await page.getByTestId('keyword').count()).toBe(9);
    // The browser's Back (to the page it came from) asks too: declined, the browser goes forward again to the editor, as it was.
    page.once('dialog', (dialog) => void (questions.push(dialog.message()), dialog.dismiss()));
    await page.evaluate(() => history.back());
    await expect.poll(() => questions).toHaveLength(2);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/observe/cell/${cellToken}/edit`);
    expect(await page.getByTestId('keyword').count()).toBe(9);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByTestId('editor-close').click();
    await page.waitForURL((url) => url.pathname === '/observe');
    expect(artist.errors).toEqual([]);
  });

  it('refuses a PNG whose body is broken, and shows a refusal of the server on the confirm step by its code', async () => {
    const artist = await member(studio.gallery, studio.tab, 'Unlucky');
    const { page } = artist;
    const cellToken = (await availableSquareNextToPublished(studio.gallery)).token;
    await reserveAndOpenEditor(studio.gallery, artist, cellToken);
    await page.getByTestId('image-input-0').setInputFiles(studio.file('broken.png'));
    await page.getByTestId('error-files.0').waitFor();
    expect(await textOf(page, 'error-files.0')).toBe(ART_MESSAGES.imageUnreadable);

    await walkToDescription(page, studio.file);
    await addKeywords(page, 'quay');
    await page.getByTestId('field-description').fill('A quay in the rain.');
    await page.getByTestId('field-ai_use').getByLabel('No AI used').check();
    await next(page, 'CONNECTION');
    await next(page, 'CONFIRM');
    // Meanwhile the square stopped being theirs (its draft went to someone else): the server refuses the save.
    const { db } = studio.gallery.app.deps;
    const piece = pieceOn(studio.gallery, cellToken);
    const admin = db.select({ id: users.id }).from(users).where(eq(users.role, Role.Admin)).get()!;
    db.update(art).set({ authorId: admin.id }).where(eq(art.id, piece.id)).run();
    await page.getByTestId('editor-next').click();
    await page.getByTestId('submit-error').waitFor();
    expect(await textOf(page, 'submit-error')).toBe(errorMessages.forbidden);
    expect(await textOf(page, 'step-title')).toBe('CONFIRM');
    expect(db.select({ n: count() }).from(pictures).where(eq(pictures.artId, piece.id)).get()!.n).toBe(0);
    expect(artist.errors.filter((e) => !/status of 403\b/.test(e))).toEqual([]);
  });

  it('keeps the piece when a proxy turns the upload away as too large (413), says so with the limit, and sends it later', async () => {
    const artist = await member(studio.gallery, studio.tab, 'Hefty');
    const { page } = artist;
    const cellToken = (await availableSquareNextToPublished(studio.gallery)).token;
    await reserveAndOpenEditor(studio.gallery, artist, cellToken);
    await walkToDescription(page, studio.file);
    await addKeywords(page, 'mill');
    await page.getByTestId('field-description').fill('The mill pond at dusk.');
    await page.getByTestId('field-ai_use').getByLabel('No AI used').check();
    await next(page, 'CONNECTION');
    await next(page, 'CONFIRM');
    // A proxy in front of the server (nginx's client_max_body_size) answers with a page of its own, not with ours.
    const openTheWay = await proxyRefusesAsTooLarge(page, new RegExp(`/api/cell/${cellToken}$`));
    await page.getByTestId('editor-next').click();
    await page.getByTestId('submit-error').waitFor();
    expect(await textOf(page, 'submit-error')).toBe(errorMessages.payload_too_large);
    expect(await textOf(page, 'submit-error')).toContain('16 MB');
    expect(await textOf(page, 'step-title')).toBe('CONFIRM');
    expect(pieceOn(studio.gallery, cellToken).status).toBe(ArtStatus.Draft);

    // Nothing typed or chosen is lost: the steps hold it all, and SUBMIT sends it once the way is open.
    await page.getByTestId('step-menu-IMAGE').click();
    await stepIs(page, 'IMAGE');
    await expect(page.getByTestId('field-title').inputValue()).resolves.toBe('Evening by the Old Mill');
    expect(await page.getByTestId('image-preview-0').count()).toBe(1);
    expect(await page.getByTestId('image-preview-1').count()).toBe(1);
    await page.getByTestId('step-menu-DESCRIPTION').click();
    await stepIs(page, 'DESCRIPTION');
    await expect(page.getByTestId('field-description').inputValue()).resolves.toBe('The mill pond at dusk.');
    await expect(page.getByTestId('keyword').allTextContents()).resolves.toEqual(['mill×']);
    await openTheWay();
    await page.getByTestId('step-menu-CONFIRM').click();
    await stepIs(page, 'CONFIRM');
    await page.getByTestId('editor-next').click();
    await page.getByTestId('editor-done').waitFor();
    const piece = pieceOn(studio.gallery, cellToken);
    expect(piece).toMatchObject({ status: ArtStatus.Submitted, title: 'Evening by the Old Mill' });
    expect(studio.dbOf().select({ n: count() }).from(pictures).where(eq(pictures.artId, piece.id)).get()!.n).toBe(2);
    expect(artist.errors.filter((e) => !failedLoad(413).test(e))).toEqual([]);
  });

  it("sends a member who opens another member's piece to /forbidden", async () => {
    const stranger = await member(studio.gallery, studio.tab, 'Stranger');
    await stranger.page.goto(`${studio.gallery.url}/observe/cell/${square.token}/edit`);
    await stranger.page.waitForURL(`${studio.gallery.url}/forbidden`);
    expect(await stranger.page.locator('h1.page__title').textContent()).toBe('Forbidden');
    // The server refuses the save itself too.
    const status = await stranger.page.evaluate(async (token) => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const form = new FormData();
      form.append('title', 'Not mine');
      const response = await fetch(`/api/cell/${token}`, {
        method: 'POST',
        body: form,
        headers: { 'X-CSRF-Token': csrf, 'X-Requested-With': 'XMLHttpRequest' },
      });
      return response.status;
    }, square.token);
    expect(status).toBe(403);
  });
});
