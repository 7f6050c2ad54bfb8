/** The participate page: the steps from visitor to artist on the tree. */
import { RESERVATION_DAYS } from '#shared/constants.ts';
import { daysInWords, EXTENSION_PERIOD, RESERVATION_PERIOD } from '#shared/durations.ts';

export interface ParticipateStep {
  title: string;
  body: string;
}

export const PARTICIPATE_LEAD =
  'Anyone can add a piece to the tree, and it never costs a thing. Here is how a square becomes yours.';

export const PARTICIPATE_STEPS: readonly ParticipateStep[] = [
  {
    title: 'register.',
    body: 'Create a free account with your name and e-mail address. That is all it takes to join the community.',
  },
  {
    title: 'observe the tree.',
    body: 'Wander through the pieces already growing there, and look for an open square beside work you would love to answer.',
  },
  {
    title: `reserve for ${daysInWords(RESERVATION_DAYS, { digits: true })}.`,
    body: `Click an available square to reserve it. It is yours for ${RESERVATION_PERIOD}, one square at a time, and you may ask once to extend it by ${EXTENSION_PERIOD}.`,
  },
  {
    title: 'upload when ready.',
    body: 'Add up to three images, tell us about the piece and describe how it connects to its neighbours. Our team reviews each piece and e-mails you the moment it is live.',
  },
  {
    title: 'build a profile.',
    body: 'Share your bio, exhibits, education, social links and website, so the people who find your piece can find the rest of your work.',
  },
];
