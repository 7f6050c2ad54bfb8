/** The file name of a picture's variant from its media key: one rule, used by the image pipeline and the snapshot. */
export type PictureVariant = 'thumb' | 'large';

export function mediaNameOf(key: string, variant: PictureVariant): string {
  return `${key}-${variant}.webp`;
}

/** The formats a picture's narrower widths are stored in (decision 047). */
export type PictureFormat = 'webp' | 'avif';

/** One stored width of a picture beside its large size: `<width>.<format>` in the `sizes` column. */
export interface PictureSize {
  width: number;
  format: PictureFormat;
}

/** The file name of one of a picture's widths (decision 047): it carries the large size's key, as the thumbnail does. */
export function sizedMediaNameOf(key: string, size: PictureSize): string {
  return `${key}-w${size.width}.${size.format}`;
}

const SIZE_ENTRY = /^(\d{1,5})\.(webp|avif)$/;

/** The `sizes` column (space-separated `<width>.<format>`) as a list; entries it does not understand are left out. */
export function parsePictureSizes(column: string): PictureSize[] {
  const sizes: PictureSize[] = [];
  for (const entry of column.split(' ')) {
    const match = SIZE_ENTRY.exec(entry);
    if (match) sizes.push({ width: Number(match[1]), format: match[2] as PictureFormat });
  }
  return sizes;
}

/** A list of widths as the `sizes` column holds it. */
export const formatPictureSizes = (sizes: readonly PictureSize[]): string =>
  sizes.map((size) => `${size.width}.${size.format}`).join(' ');

/**
 * The deep-zoom pyramid's descriptor (decision 048): named by the large size's key, as the widths are, so a picture
 * stored again names the same pyramid.
 */
export function pyramidDescriptorNameOf(key: string): string {
  return `${key}-dz.json`;
}

/** One tile of a picture's pyramid: its level (0 is one pixel), then its column and row at that level. */
export function pyramidTileNameOf(key: string, level: number, column: number, row: number): string {
  return `${key}-dz${level}-${column}-${row}.webp`;
}

/** The states of a picture's pyramid, as the pictures row holds them (decision 048). */
export type PyramidState = 'none' | 'building' | 'ready' | 'failed';
