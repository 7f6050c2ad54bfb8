/**
 * The gallery's addresses, on the contact page and in the footer: the contact e-mail, the help e-mail and the phone
 * number, each shown only when the operator has set it (CONTACT_EMAIL, HELP_EMAIL, CONTACT_PHONE).
 */
import { initialParams } from '#client/api/initial-params.ts';

/** The gallery's addresses from the page's initial parameters; empty where they could not be loaded. */
export function contactSettings(): { email: string; helpEmail: string; phone: string } {
  try {
    const { email, helpEmail, phone } = initialParams().settings;
    return { email, helpEmail, phone };
  } catch {
    return { email: '', helpEmail: '', phone: '' };
  }
}

export function ContactDetails({ className }: { className?: string }) {
  const { email, helpEmail, phone } = contactSettings();
  if (!email && !helpEmail && !phone) return null;
  return (
    <ul className={className} data-testid="contact-details">
      {email && (
        <li>
          Write to us: <a href={`mailto:${email}`}>{email}</a>
        </li>
      )}
      {helpEmail && helpEmail !== email && (
        <li>
          Help: <a href={`mailto:${helpEmail}`}>{helpEmail}</a>
        </li>
      )}
      {phone && (
        <li>
          Phone: <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>
        </li>
      )}
    </ul>
  );
}
