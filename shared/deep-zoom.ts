/**
 * A picture's deep-zoom pyramid as the server writes it and the viewer reads it (decision 048, docs/api.md): the
 * descriptor `<key>-dz.json` and the rule that sizes its levels.
 */

/** What `<key>-dz.json` holds: enough for a viewer to ask for the tiles it shows. */
export interface PyramidDescriptor {
  format: 'webp';
  /** The upload's own size, as displayed (its EXIF orientation applied). */
  width: number;
  height: number;
  tileSize: number;
  overlap: number;
  /** Levels 0 (one pixel) to levels - 1 (the whole picture); level n is the picture halved levels - 1 - n times. */
  levels: number;
  /** The tiles' names relative to the descriptor's address, with {level}, {column} and {row} to fill in. */
  tiles: string;
}

/** The picture's size at a level (the Deep Zoom rule: the full size divided by a power of two, rounded up). */
export function levelSize(descriptor: Pick<PyramidDescriptor, 'width' | 'height' | 'levels'>, level: number) {
  const factor = 2 ** (descriptor.levels - 1 - level);
  return { width: Math.ceil(descriptor.width / factor), height: Math.ceil(descriptor.height / factor) };
}
