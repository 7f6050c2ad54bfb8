/**
 * E-mail: the outbox written inside the transaction of what it tells, its delivery, and the contact form.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { sendContactMessage } from './contact.ts';
export { closeMailTransports, deliverOutbox, enqueueMail } from './mail.ts';
