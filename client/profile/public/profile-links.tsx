/**
 * The outward links of a public profile: the personal URL and the social links (fb, tw, tt, in; decision 015), each
 * hidden when empty. Only http(s) ever becomes a link: a stored value with another scheme shows as plain text
 * (the personal URL) or not at all (a social link).
 */
import type { PublicProfile } from '#shared/profile-api.ts';
import { displayUrl, httpHref } from '../profile-text.ts';

/** The four social links, named as on the profile form. */
export const SOCIAL_LINKS = [
  { field: 'fb_url', label: 'Facebook' },
  { field: 'tw_url', label: 'X (Twitter)' },
  { field: 'tt_url', label: 'TikTok' },
  { field: 'in_url', label: 'Instagram' },
] as const;

const EXTERNAL = { target: '_blank', rel: 'noopener noreferrer nofollow ugc' } as const;

export function PersonalUrl({ url }: { url: string }) {
  if (url.trim() === '') return null;
  const href = httpHref(url);
  return (
    <p className="profile-hero__url" data-testid="profile-url">
      {href ? (
        <a href={href} {...EXTERNAL}>
          {displayUrl(url)}
        </a>
      ) : (
        url
      )}
    </p>
  );
}

export function SocialLinks({ profile }: { profile: PublicProfile }) {
  const links = SOCIAL_LINKS.flatMap(({ field, label }) => {
    const href = httpHref(profile[field]);
    return href ? [{ field, label, href }] : [];
  });
  if (links.length === 0) return null;
  return (
    <ul className="profile-links" aria-label="Elsewhere" data-testid="profile-social-links">
      {links.map(({ field, label, href }) => (
        <li key={field}>
          <a className="profile-links__link" href={href} {...EXTERNAL} data-testid={`profile-${field}`}>
            {label}
          </a>
        </li>
      ))}
    </ul>
  );
}
