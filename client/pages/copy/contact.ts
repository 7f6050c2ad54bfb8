/** The contact page's words, and its success message once a message is sent (successContact). */

export const CONTACT_COPY = {
  lead: 'A question, an idea, a hiccup on the tree, or simply a hello? Write to us. We read every message and answer as soon as we can.',
  successContact: 'Thank you! Your message is on its way, and we will reply to the address you gave us.',
  reasonPlaceholder: 'Choose a reason',
  asideTitle: 'before you write',
  aside:
    'Many answers are already in our {faqs}. To have a piece taken down, you can also ask from the artwork’s detail page.',
} as const;
