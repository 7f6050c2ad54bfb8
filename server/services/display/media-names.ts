/** The file name of a picture's variant from its media key: one rule, used by the image pipeline and the snapshot. */
export type PictureVariant = 'thumb' | 'large';

export function mediaNameOf(key: string, variant: PictureVariant): string {
  return `${key}-${variant}.webp`;
}
