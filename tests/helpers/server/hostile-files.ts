/**
 * Hostile uploads, made byte by byte: polyglots (a real image that is also HTML, a zip or script), truncated images,
 * a decompression bomb that is a few kilobytes on disk, and a camera JPEG with GPS in its EXIF and XMP.
 */
import zlib from 'node:zlib';
import sharp from 'sharp';

/** A busy picture (compresses badly, like a photograph) of the given size. */
export function noisyImage(width: number, height: number): sharp.Sharp {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

export const SCRIPT = '<script>alert("polyglot")</script>';
export const HTML_PAGE = `<!doctype html><html><body><img src=x onerror=alert(1)>${SCRIPT}</body></html>`;

/** A one-file zip archive (stored, no compression), as a polyglot's tail. */
export function zipOf(name: string, content: string): Buffer {
  const data = Buffer.from(content);
  const fileName = Buffer.from(name);
  const crc = zlib.crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  const localPart = Buffer.concat([local, fileName, data]);
  const centralPart = Buffer.concat([central, fileName]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(centralPart.length, 12);
  end.writeUInt32LE(localPart.length, 16);
  return Buffer.concat([localPart, centralPart, end]);
}

/** A valid GIF that also carries script: in a comment block, or after its trailer where decoders stop reading. */
export async function gifScriptPolyglot(where: 'comment' | 'tail'): Promise<Buffer> {
  const gif = await noisyImage(40, 30).gif().toBuffer();
  if (where === 'tail') return Buffer.concat([gif, Buffer.from('\n=1;alert("after");')]);
  const comment = Buffer.from('*/=1;alert("gif");/*');
  const block = Buffer.concat([Buffer.from([0x21, 0xfe, comment.length]), comment, Buffer.from([0x00])]);
  // The last byte of a GIF is its trailer (0x3B): the comment block goes just before it.
  return Buffer.concat([gif.subarray(0, gif.length - 1), block, Buffer.from([0x3b])]);
}

/** A GIF header that is also JavaScript, with no picture behind it. */
export const GIF_HEADER_SCRIPT = Buffer.from('GIF89a/*\x0a\x00\x0a\x00\x00\x00\x00*/=1;alert(1);//');

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A greyscale PNG of width × height at `bitDepth` bits a pixel whose image data is `rows`, compressed. */
function greyPng(width: number, height: number, bitDepth: 1 | 8, rows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = bitDepth;
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A PNG that declares width × height grey pixels and carries a few rows of compressed zeros: a few kilobytes on
 * disk, billions of pixels once decoded.
 */
export function pngBomb(width: number, height: number): Buffer {
  return greyPng(width, height, 8, Buffer.alloc((width + 1) * 50));
}

/**
 * A whole PNG of width × height black pixels at one bit each: every row there and valid to its end, as a real
 * picture of that size is, yet quick to make and a few kilobytes (a picture encoded by sharp at 20000 × 20000 took
 * five seconds of CPU).
 */
export function wholePng(width: number, height: number): Buffer {
  // Each row: its filter byte, then a bit a pixel.
  return greyPng(width, height, 1, Buffer.alloc((1 + Math.ceil(width / 8)) * height));
}

/** The first part of a file, as an interrupted upload leaves it. */
export const truncated = (bytes: Buffer, fraction = 0.6): Buffer =>
  bytes.subarray(0, Math.floor(bytes.length * fraction));

export const CAMERA = { make: 'SpyCam', model: 'GPS-9000', xmpCreator: 'Jane Q. Photographer' };

/** A camera JPEG: EXIF with the maker and a GPS position, and XMP naming the photographer. */
export function cameraJpeg(): Promise<Buffer> {
  return noisyImage(120, 90)
    .jpeg()
    .withExif({
      IFD0: { Make: CAMERA.make, Model: CAMERA.model },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '48/1 51/1 2400/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '2/1 21/1 300/100',
      },
    })
    .withXmp(
      `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${CAMERA.xmpCreator}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`,
    )
    .toBuffer();
}
