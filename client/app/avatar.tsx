/**
 * A person's picture, or our placeholder when they have none: a head and shoulders built from the same rounded
 * squares as the mark, on a soft ground.
 */

interface AvatarProps {
  /** The picture's URL, or null for the placeholder. */
  image: string | null;
  /** Who it shows; used as the picture's text alternative. */
  name: string;
  className?: string;
  /** Decorative when the name is already written beside it. */
  decorative?: boolean;
}

export function Avatar({ image, name, className, decorative = false }: AvatarProps) {
  const classes = className ? `avatar ${className}` : 'avatar';
  if (image) {
    return (
      <img
        className={classes}
        src={image}
        alt={decorative ? '' : name}
        width={300}
        height={300}
        loading="lazy"
        decoding="async"
      />
    );
  }
  return <PlaceholderAvatar className={classes} label={decorative ? undefined : name} />;
}

export function PlaceholderAvatar({ className, label }: { className?: string; label?: string }) {
  return (
    <svg
      className={className ? `${className} avatar--placeholder` : 'avatar avatar--placeholder'}
      viewBox="0 0 40 40"
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      focusable="false"
    >
      <rect className="avatar__ground" width="40" height="40" rx="8" />
      <rect className="avatar__head" x="14" y="8" width="12" height="12" rx="3" />
      <path className="avatar__body" d="M8 40v-6.5A8.5 8.5 0 0 1 16.5 25h7a8.5 8.5 0 0 1 8.5 8.5V40z" />
    </svg>
  );
}
