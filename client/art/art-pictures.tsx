/** The main image of a piece and the thumbnail list that switches it. */
import { useState } from 'react';
import { DeepZoomViewer } from './deep-zoom-viewer.tsx';
import type { ArtPicture } from '#shared/art-api.ts';
import { titleOrUntitled } from '#shared/words.ts';
import { pictureSrcsets } from '#shared/picture-srcsets.ts';

/**
 * The width the main picture is drawn at, for `sizes` (art-details.css): the stage's column less the page's gutters,
 * the stage's padding and border (one column below 56rem, three fifths of at most 72rem above), and no wider than
 * the stage's height (min(70vh, 44rem)) times the picture's shape.
 */
const stageSizes = (ratio: number) =>
  `(min-width: 56rem) min(39rem, 60vw - 5rem, ${ratio} * min(70vh, 44rem)), ` +
  `min(100vw - 4rem, ${ratio} * min(70vh, 44rem))`;

export function ArtPictures({ pictures, title }: { pictures: ArtPicture[]; title: string }) {
  const [selected, setSelected] = useState(0);
  const [zooming, setZooming] = useState(false);
  const index = selected < pictures.length ? selected : 0;
  const current = pictures[index];
  const name = titleOrUntitled(title);

  if (!current) {
    return (
      <div className="art-pictures">
        <div className="art-pictures__stage art-pictures__stage--empty" data-testid="art-no-picture">
          No picture yet
        </div>
      </div>
    );
  }

  const ratio = current.width / current.height;
  // The picture's deep-zoom pyramid, once cut (decision 048): the picture opens into the viewer.
  const zoomable = current.deepZoom?.state === 'ready' ? current.deepZoom.descriptor : null;
  const label =
    current.description || (pictures.length > 1 ? `${name}, picture ${index + 1} of ${pictures.length}` : name);
  const srcsets = pictureSrcsets(current);
  const sizes = stageSizes(Number(ratio.toFixed(4)));
  return (
    <div className="art-pictures">
      <figure className="art-pictures__stage">
        <picture key={current.token}>
          {srcsets.avif && <source type="image/avif" srcSet={srcsets.avif} sizes={sizes} />}
          {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the picture opens the viewer; its zoom button does the same for the keyboard */}
          <img
            className="art-pictures__main"
            src={current.image}
            srcSet={srcsets.webp}
            sizes={sizes}
            width={current.width}
            height={current.height}
            // The box has the picture's shape before a byte of it arrives, so nothing below it moves as it loads.
            style={{
              aspectRatio: `${current.width} / ${current.height}`,
              width: `min(100%, calc(var(--art-stage-height) * ${ratio}))`,
            }}
            // The artist's description of the picture when given; else the piece's name (and which picture).
            alt={label}
            decoding="async"
            data-testid="art-main-image"
            // A pointer opens the viewer from the picture itself; the button below is the way in for keys.
            onClick={zoomable ? () => setZooming(true) : undefined}
            data-zoomable={zoomable ? 'true' : undefined}
          />
        </picture>
        {zoomable && (
          <button type="button" className="art-pictures__zoom" onClick={() => setZooming(true)} data-testid="art-zoom">
            Zoom into the picture
          </button>
        )}
        {current.deepZoom?.state === 'building' && (
          <p className="art-pictures__preparing" role="status" data-testid="art-zoom-preparing">
            Preparing the zoomable picture…
          </p>
        )}
        {zoomable && zooming && (
          <DeepZoomViewer key={zoomable} descriptorUrl={zoomable} label={label} onClose={() => setZooming(false)} />
        )}
      </figure>
      {pictures.length > 1 && (
        <ul className="art-pictures__thumbs" aria-label="Pictures of this piece">
          {pictures.map((picture, position) => (
            <li key={picture.token}>
              <button
                type="button"
                className="art-pictures__thumb"
                aria-pressed={position === index}
                aria-label={`Show picture ${position + 1} of ${pictures.length}`}
                onClick={() => setSelected(position)}
                data-testid="art-thumb"
              >
                <img src={picture.thumb} alt="" width={96} height={96} loading="lazy" decoding="async" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
