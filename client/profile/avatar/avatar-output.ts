/**
 * APPLY of the avatar popup: what the frame shows, rendered at 300x300 as a JPEG on white (docs/product.md, Limits).
 */
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { placement, type CropView } from './crop-geometry.ts';

const JPEG_QUALITY = 0.9;

export function renderAvatar(picture: ImageBitmap, view: CropView, frame: number): Promise<Blob> {
  const side = AVATAR_LIMITS.size;
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('This browser cannot draw the picture.'));
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, side, side);
  context.imageSmoothingQuality = 'high';
  const at = placement(view, picture, frame, side);
  context.drawImage(picture, at.x, at.y, at.width, at.height);
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The picture could not be encoded.'))),
      'image/jpeg',
      JPEG_QUALITY,
    );
  });
}
