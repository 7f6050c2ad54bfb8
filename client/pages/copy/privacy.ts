/** The privacy policy, dated January 3, 2024, in our own words. */
import type { LegalSection } from './terms.ts';

export const PRIVACY_UPDATED = { iso: '2024-01-03', label: 'January 3, 2024' } as const;

export const PRIVACY_LEAD =
  'A gallery runs on trust. This policy explains, as plainly as we can, what we collect when you visit or take part, why we need it, and what you can do about it.';

export const PRIVACY_SECTIONS: readonly LegalSection[] = [
  {
    title: 'What we collect',
    blocks: [
      {
        list: [
          'Account details: your first and last name, your e-mail address, and your password (stored only as a secure one-way hash, never as you typed it).',
          'Profile details you choose to add: your picture, bio, exhibits, education, location, website and social links.',
          'Your art: the images, titles, descriptions and connections you share.',
          'What you do in the gallery: the squares you reserve, the pieces you like and view, and the artists you follow.',
          'Messages you send us through the contact form.',
          'Technical details: your IP address and browser information, which we use to keep the site secure and to stop abuse.',
        ],
      },
    ],
  },
  {
    title: 'What is public',
    blocks: [
      'Published art and your public profile (your name, picture and the details you add) can be seen by anyone. Your e-mail address is shown on your profile only if you choose to show it. Your password, your reservations and your messages to us are never public.',
    ],
  },
  {
    title: 'How we use it',
    blocks: [
      'We use your information to run the gallery: to keep you signed in, to hold your reserved square, to review and publish your pieces, to send you the e-mails you need (reminders, review results, password resets and the alerts you ask for), to answer your messages, and to protect the community from abuse. We do not sell your information, and we do not use it for advertising.',
    ],
  },
  {
    title: 'Cookies',
    blocks: [
      'We use only the cookies the site needs to work: one that keeps you signed in, and one that protects your forms against forged requests. We do not use advertising or tracking cookies.',
    ],
  },
  {
    title: 'Who we share it with',
    blocks: [
      'We share information only with services that help us run the gallery (such as delivering e-mail), only as far as they need it, or when the law requires us to.',
    ],
  },
  {
    title: 'Where it is kept and for how long',
    blocks: [
      'Our Services are hosted in the United States, and your information is stored there. We keep it while your account is active and as long as needed to run the gallery; contact messages and security records are kept only as long as they are useful. Passwords are hashed, connections are protected, and access is limited to the people who run the gallery.',
    ],
  },
  {
    title: 'Your choices',
    blocks: [
      'You can see and change your account and profile details at any time on your profile page. To ask for a copy of your information, a correction, or the deletion of your account, e-mail us at {help-email}.',
    ],
  },
  {
    title: 'Children',
    blocks: [
      'Gallery Tree is not meant for children under 13, and we do not knowingly collect information from them. If you believe a child under 13 has given us information, please tell us and we will delete it.',
    ],
  },
  {
    title: 'Changes to this policy',
    blocks: [
      'If we change this policy, we will update the date at the top of this page, and for important changes we will let members know by e-mail.',
    ],
  },
  {
    title: 'Questions',
    blocks: [
      'Anything unclear, or anything you would like us to do with your information? Write to us at {help-email}. We are glad to help.',
    ],
  },
];
