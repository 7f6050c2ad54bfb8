/** Privacy policy ('privacy.'), with the help e-mail link; the words live in copy/privacy.ts. */
import { PRIVACY_LEAD, PRIVACY_SECTIONS, PRIVACY_UPDATED } from './copy/privacy.ts';
import { LegalSections } from './static/legal-sections.tsx';
import { StaticPage } from './static/static-page.tsx';

export function PrivacyPage() {
  return (
    <StaticPage
      title="privacy."
      eyebrow="privacy policy"
      updated={PRIVACY_UPDATED}
      lead={PRIVACY_LEAD}
      className="static-page--legal"
    >
      <LegalSections idPrefix="privacy" sections={PRIVACY_SECTIONS} />
    </StaticPage>
  );
}
