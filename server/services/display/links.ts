/**
 * The links e-mails and feeds put before a person: a piece's page, its editor, a square or a branch slot on the tree,
 * the extend page.
 */
import { cellPath, extendPath } from '#shared/paths.ts';

export const detailsLinkOf = (siteUrl: string, cellToken: string) => siteUrl + cellPath(cellToken, 'details');

export const editLinkOf = (siteUrl: string, cellToken: string) => siteUrl + cellPath(cellToken, 'edit');

/** Where an e-mail sends someone to see a square: the tree, centred on it. */
export function treeLinkOf(siteUrl: string, cellToken: string): string {
  return siteUrl + cellPath(cellToken, 'tree');
}

/** Where an e-mail sends someone to see a new branch slot (a position without a cell yet): the tree, centred there. */
export function slotLinkOf(siteUrl: string, slot: { row: number; column: number }): string {
  return `${siteUrl}/observe?row=${slot.row}&col=${slot.column}`;
}

/** The extend page's link (docs/product.md, Screens and routes), in each reminder that may still lead to extending. */
export function extendLinkOf(siteUrl: string, cellToken: string, reminderToken: string): string {
  return siteUrl + extendPath(cellToken, reminderToken);
}
