/** Numbered sections of a legal page, with a table of contents that links to each. */
import type { LegalSection } from '../copy/terms.ts';
import { RichBlocks } from './rich-text.tsx';

export function LegalSections({ idPrefix, sections }: { idPrefix: string; sections: readonly LegalSection[] }) {
  return (
    <>
      <nav className="legal-toc" aria-label="Contents">
        <p className="legal-toc__heading">contents</p>
        <ol className="legal-toc__list">
          {sections.map((section, i) => (
            <li key={section.title}>
              <a href={`#${idPrefix}-${i + 1}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="legal-sections">
        {sections.map((section, i) => (
          <section
            key={section.title}
            id={`${idPrefix}-${i + 1}`}
            className="legal-section"
            data-testid="legal-section"
          >
            <h2 className="legal-section__title">
              <span className="legal-section__number">{i + 1}.</span> {section.title}
            </h2>
            <RichBlocks blocks={section.blocks} />
          </section>
        ))}
      </div>
    </>
  );
}
