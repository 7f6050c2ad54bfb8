/** Terms ('terms.'): 25 numbered sections with a table of contents; the words live in copy/terms.ts. */
import { TERMS_LEAD, TERMS_SECTIONS, TERMS_UPDATED } from './copy/terms.ts';
import { LegalSections } from './static/legal-sections.tsx';
import { StaticPage } from './static/static-page.tsx';

export function TermsPage() {
  return (
    <StaticPage
      title="terms."
      eyebrow="legal terms"
      updated={TERMS_UPDATED}
      lead={TERMS_LEAD}
      className="static-page--legal"
    >
      <LegalSections idPrefix="terms" sections={TERMS_SECTIONS} />
    </StaticPage>
  );
}
