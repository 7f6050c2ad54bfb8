/** The contact form (docs/product.md, Limits): one schema for the page's form and for the misc.contact procedure. */
import * as v from 'valibot';
import { CONTACT_LIMITS as L, CONTACT_REASONS } from '../constants.ts';
import { MESSAGES, requiredEmail, requiredText } from './rules.ts';

export type ContactReason = (typeof CONTACT_REASONS)[number];

const isContactReason = (value: string): value is ContactReason =>
  (CONTACT_REASONS as readonly string[]).includes(value);

/** Required, then one of the listed reasons; an unknown one reads as 'Invalid value.'. */
const reason = v.pipe(
  v.optional(v.nullable(v.string(MESSAGES.invalid)), ''),
  v.transform((value) => value ?? ''),
  v.trim(),
  v.nonEmpty(MESSAGES.blank('Reason')),
  v.check(isContactReason, MESSAGES.invalid),
  v.transform((value) => value as ContactReason),
);

export const contactSchema = v.object({
  subject: requiredText('Subject', L.subject),
  reason,
  email: requiredEmail('Email', L.email),
  message: requiredText('Message', L.message),
});

export type ContactMessage = v.InferOutput<typeof contactSchema>;
