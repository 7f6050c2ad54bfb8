/**
 * The SIZE step's proportional rectangle: width against height as entered, drawn to fit a fixed box, with its sides
 * labelled. Nothing is drawn until both sides are positive numbers.
 */
const BOX = 160;
const MIN_SIDE = 4;

/** The rectangle's sides in pixels for the given width and height, or null when they are not both positive. */
export function rectangleSides(width: string, height: string): { w: number; h: number } | null {
  const w = Number(width);
  const h = Number(height);
  if (!(w > 0 && h > 0) || !Number.isFinite(w) || !Number.isFinite(h)) return null;
  const scale = BOX / Math.max(w, h);
  return { w: Math.max(MIN_SIDE, w * scale), h: Math.max(MIN_SIDE, h * scale) };
}

export function SizeRectangle({ width, height, units }: { width: string; height: string; units: string }) {
  const sides = rectangleSides(width.trim(), height.trim());
  return (
    <figure className="editor-size" aria-label="Proportions of the piece" data-testid="size-rectangle">
      <div className="editor-size__box" style={{ width: BOX, height: BOX }}>
        {sides ? (
          <div className="editor-size__rect" style={{ width: sides.w, height: sides.h }} data-testid="size-rect" />
        ) : (
          <span className="editor-size__empty">Enter width and height</span>
        )}
      </div>
      {sides && (
        <figcaption className="editor-size__caption">
          {width.trim()} × {height.trim()} {units}
        </figcaption>
      )}
    </figure>
  );
}
