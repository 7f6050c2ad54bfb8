/**
 * The eleven questions of the FAQs page, answered in our own words. Answers may use the tokens of
 * rich-text.tsx (e.g. {contact}) for links.
 */
import { EXTENSION_PERIOD, RESERVATION_PERIOD } from '#shared/durations.ts';

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
import type { RichBlock } from '../static/rich-text.tsx';

export interface Faq {
  question: string;
  answer: readonly RichBlock[];
}

export const FAQS_LEAD = 'The questions people ask us most. If yours is not here, we would love to hear it.';

export const FAQS: readonly Faq[] = [
  {
    question: 'Does it cost anything to use Gallery Tree?',
    answer: [
      'No. Gallery Tree is free to use, for visitors and artists alike. Browsing, registering, reserving a square and sharing your art cost nothing.',
    ],
  },
  {
    question: 'Who pays for Gallery Tree?',
    answer: [
      'Gallery Tree is independently funded. That independence is what lets us keep it free and keep the focus on the art and the people who make it.',
    ],
  },
  {
    question: 'Who owns the art I upload?',
    answer: [
      'You do. Your work stays yours: uploading a piece only lets us show it on the tree and around the site. See our {terms} for the details.',
    ],
  },
  {
    question: 'Can I share art made with AI?',
    answer: [
      'Yes, as long as it is labelled. Honesty is the first principle of The Ground: if AI played any part in a piece, say so when you upload it.',
    ],
  },
  {
    question: 'Can I upload video?',
    answer: ['Not yet. For now every square holds still images: up to three per piece. Moving work may come later.'],
  },
  {
    question: 'Can I sell my art here?',
    answer: [
      'Gallery Tree is not a shop, so there is no buying or selling on the site. You are welcome to put your contact details in your piece’s description, so interested visitors can reach you directly.',
    ],
  },
  {
    question: 'What if there are no squares available?',
    answer: [
      'Open a square on the tree and ask to be told when it, or any square, becomes available. We will send you an e-mail alert as soon as one opens up.',
    ],
  },
  {
    question: 'How long do I have to upload my piece?',
    answer: [
      `${capitalised(RESERVATION_PERIOD)} from the moment you reserve a square. If you need more time, you can extend it once, by ${EXTENSION_PERIOD}, through the extension form for your reserved square; the reminder e-mails we send carry a link to it.`,
    ],
  },
  {
    question: 'Can I delete my art?',
    answer: [
      'Artists cannot delete pieces themselves, because other pieces connect to them. To have a piece taken down, request its removal from the artwork’s detail page, and our team will take care of it.',
    ],
  },
  {
    question: 'Can I change my piece after it is published?',
    answer: [
      'You can edit its texts, and the descriptions of its images, at any time. Its images are the ones our team reviewed: changing, adding or removing one needs an alteration requested through one of our admins: {contact} and tell us which piece.',
    ],
  },
  {
    question: 'Can I share more than one piece?',
    answer: [
      'Please do! We encourage it. You can hold one reserved square at a time; once a piece is uploaded, reserve the next square and keep growing the tree.',
    ],
  },
];
