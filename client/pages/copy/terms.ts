/**
 * The legal terms: 25 numbered sections, last updated December 29, 2023, written plainly in our own words around the
 * facts they must keep (docs/product.md, Screens and routes).
 */
import { EXTENSION_PERIOD, RESERVATION_PERIOD } from '#shared/durations.ts';
import type { RichBlock } from '../static/rich-text.tsx';

export interface LegalSection {
  title: string;
  blocks: readonly RichBlock[];
}

export const TERMS_UPDATED = { iso: '2023-12-29', label: 'December 29, 2023' } as const;

export const TERMS_LEAD =
  'These terms are the agreement between you and Gallery Tree. We have tried to write them the way we would explain them over coffee; please read them, because using the gallery means you accept them.';

export const TERMS_SECTIONS: readonly LegalSection[] = [
  {
    title: 'Agreement to these terms',
    blocks: [
      'Gallery Tree (“Gallery Tree”, “we”, “us”, “our”) runs a free online community art gallery shaped as a growing tree of squares (the “Services”). By visiting the site, creating an account or sharing art, you agree to these terms. If you do not agree, please do not use the Services.',
      'We may update these terms from time to time. When we do, we change the date at the top of this page. Continuing to use the Services after a change means you accept the updated terms.',
    ],
  },
  {
    title: 'Who may use the Services',
    blocks: [
      'The Services are meant for people who are at least 13 years old. We do not knowingly serve or collect information from children under 13. If you are under the age of majority where you live, please use the Services with the permission and guidance of a parent or guardian.',
    ],
  },
  {
    title: 'Where the Services are hosted',
    blocks: [
      'The Services are operated and hosted in the United States. If you use them from elsewhere, you do so on your own initiative, and you are responsible for following the laws that apply where you are. Your information will be transferred to and stored in the United States.',
    ],
  },
  {
    title: 'Your account',
    blocks: [
      'To reserve squares, share art, like pieces or follow artists, you need an account. Please give us accurate information and keep it up to date.',
      'Keep your password to yourself. You are responsible for what happens under your account; if you think someone else has used it, change your password and tell us straight away.',
    ],
  },
  {
    title: 'Free participation',
    blocks: [
      'Using Gallery Tree is free. We do not charge for browsing, registering, reserving squares or sharing art. Should we ever offer something that costs money, we will say so clearly before you pay anything.',
    ],
  },
  {
    title: 'Reserving a square',
    blocks: [
      `A registered member may hold one reserved square at a time. A reservation lasts ${RESERVATION_PERIOD}, and may be extended once, by ${EXTENSION_PERIOD}. A square whose reservation runs out without a submitted piece is released back to the community.`,
      'Reserving a square gives you the chance to place a piece there; it does not give you any ownership of the square or of the site.',
    ],
  },
  {
    title: 'Your art and your content',
    blocks: [
      'Your art, its images, its descriptions and your profile (“your content”) stay yours. By sharing them on Gallery Tree, you give us a worldwide, non-exclusive, royalty-free licence to host, store, reproduce, display and show your content on the Services and in material that promotes the gallery, for as long as it is on the Services.',
      'You confirm that you made the work you share, or that you have every right needed to share it, and that sharing it does not break anyone else’s rights.',
    ],
  },
  {
    title: 'The Ground: our principles',
    blocks: [
      'Everyone who adds to the tree agrees to The Ground, our four principles:',
      {
        list: [
          'Honesty: disclose any use of AI in making a piece.',
          'Connectivity: each piece connects to its neighbours, and you describe how.',
          'Decency: nothing hateful, harassing, obscene, or meant to hurt.',
          'Community: treat fellow artists and visitors with care and respect.',
        ],
      },
    ],
  },
  {
    title: 'Review of submissions',
    blocks: [
      'Our team reviews each piece before it is published. We may publish it, ask you for changes, or decline it, and we will let you know by e-mail. We review with care, but we are not obliged to publish any particular piece.',
    ],
  },
  {
    title: 'Things you must not do',
    blocks: [
      'When using the Services, please do not:',
      {
        list: [
          'share work that is not yours to share, or that infringes someone’s copyright, trademark, privacy or other rights;',
          'upload anything unlawful, hateful, harassing, sexually exploitative, or violent in a way meant to shock or harm;',
          'pretend to be someone else, or misstate how a piece was made;',
          'use the Services to sell goods or services, or to send advertising or spam;',
          'scrape, copy or harvest content or user information by automated means;',
          'try to break, overload or get around the security of the Services;',
          'interfere with anyone else’s use and enjoyment of the gallery.',
        ],
      },
    ],
  },
  {
    title: 'Copyright and intellectual property',
    blocks: [
      'Apart from your content and the content of other members, the Services (their design, code, text, logo and look) belong to us and are protected by copyright and other laws. You may browse and share links to the gallery for personal, non-commercial purposes; please ask us before any other use.',
      'The pieces on the tree belong to their artists. Admiring them is encouraged; copying them without the artist’s permission is not.',
    ],
  },
  {
    title: 'Copyright complaints',
    blocks: [
      'We respect the rights of creators. If you believe something on Gallery Tree infringes your copyright, e-mail us at {help-email} with a description of your work, where the infringing material appears, your contact details, and a statement that you believe in good faith the use is not authorised. We will look into it promptly and remove material where that is right.',
    ],
  },
  {
    title: 'Removal of a listing',
    blocks: [
      'Because other pieces connect to it, artists cannot delete a piece themselves. If you want a listing of an original or digital work removed, contact us by e-mail at {help-email} (or request removal from the artwork’s detail page), and we will handle it.',
    ],
  },
  {
    title: 'Privacy',
    blocks: [
      'We care about your privacy. Our {privacy} explains what we collect, why, and the choices you have. By using the Services, you agree that we may use your information as that policy describes.',
    ],
  },
  {
    title: 'Links to other sites',
    blocks: [
      'Artists may link to their own websites and social pages. We do not control those sites and are not responsible for what they contain or how they treat your information; visiting them is at your own discretion.',
    ],
  },
  {
    title: 'Changes and interruptions',
    blocks: [
      'The gallery is a living project. We may change, pause or stop parts of the Services at any time. We work to keep the tree available, but we cannot promise that it will always be online or free of errors, and we are not liable for any loss caused by downtime.',
    ],
  },
  {
    title: 'Termination',
    blocks: [
      'You may stop using the Services whenever you like. We may suspend or end your account, or remove your content, if you break these terms or The Ground, or if we must do so to protect the community or comply with the law. Where it is reasonable, we will tell you why.',
      'The sections of these terms that by their nature should outlast termination (ownership, disclaimers, limits of liability, governing law and disputes) continue to apply.',
    ],
  },
  {
    title: 'Governing law',
    blocks: [
      'These terms and your use of the Services are governed by the laws of the State of Florida, United States of America, without regard to its conflict of law principles.',
    ],
  },
  {
    title: 'Disputes',
    blocks: [
      'If something goes wrong, please talk to us first: most problems are solved with a friendly e-mail. If we cannot settle a dispute informally within 30 days, it shall be resolved in the state or federal courts located in Florida, and you and we agree to their jurisdiction.',
      'Any claim arising from or relating to the Services must be started within 1 year after the cause of action arose; otherwise it is permanently barred.',
    ],
  },
  {
    title: 'Disclaimer',
    blocks: [
      'The Services are provided “as is” and “as available”. To the fullest extent the law allows, we make no warranties of any kind, express or implied, including warranties of merchantability, fitness for a particular purpose and non-infringement. We do not vouch for the content members share.',
    ],
  },
  {
    title: 'Limitation of liability',
    blocks: [
      'To the fullest extent the law allows, neither we nor the people behind Gallery Tree will be liable for any indirect, incidental, special, consequential or punitive damages, or for lost profits, data or goodwill, arising from your use of the Services. Because the Services are free, our total liability to you for any claim is limited to one hundred US dollars (US $100).',
    ],
  },
  {
    title: 'Indemnification',
    blocks: [
      'You agree to defend and hold harmless Gallery Tree and the people behind it from any claims, losses and costs (including reasonable legal fees) arising from your content, your use of the Services, or your breach of these terms.',
    ],
  },
  {
    title: 'Electronic communications',
    blocks: [
      'When you use the Services or e-mail us, you communicate with us electronically, and you agree that notices and messages we send electronically (by e-mail or on the site) satisfy any requirement that they be in writing.',
    ],
  },
  {
    title: 'The whole agreement',
    blocks: [
      'These terms, together with our {privacy} and any rules we post on the site, are the entire agreement between you and us about the Services. If any part turns out to be unenforceable, the rest stays in effect. Our not enforcing a right is not a waiver of it. You may not transfer these terms; we may transfer them, for example to a new home for the gallery.',
    ],
  },
  {
    title: 'Contact us',
    blocks: [
      'Questions about these terms, a complaint, or a listing to remove? Write to us at {help-email}, or use our contact form: {contact}.',
    ],
  },
];
