/**
 * FAQs ('faqs.'): the eleven questions; choosing one opens its answer and closes the one before. The selected
 * question is local state.
 */
import { useId, useState } from 'react';
import { FAQS, FAQS_LEAD } from './copy/faqs.ts';
import { RichBlocks } from './static/rich-text.tsx';
import { StaticPage } from './static/static-page.tsx';

export function FaqsPage() {
  const [selected, setSelected] = useState<number | null>(0);
  const baseId = useId();
  return (
    <StaticPage title="faqs." eyebrow="questions and answers" lead={FAQS_LEAD}>
      <ol className="faq-list">
        {FAQS.map((faq, i) => {
          const open = selected === i;
          const buttonId = `${baseId}-q${i}`;
          const panelId = `${baseId}-a${i}`;
          return (
            <li key={faq.question} className={open ? 'faq is-open' : 'faq'} data-testid="faq">
              <h2 className="faq__question">
                <button
                  type="button"
                  id={buttonId}
                  className="faq__toggle"
                  aria-expanded={open}
                  aria-controls={panelId}
                  onClick={() => setSelected(open ? null : i)}
                >
                  <span className="faq__number" aria-hidden="true">
                    {String(i + 1).padStart(2, '0')}
                  </span>
                  <span className="faq__text">{faq.question}</span>
                  <span className="faq__sign" aria-hidden="true" />
                </button>
              </h2>
              <div id={panelId} role="region" aria-labelledby={buttonId} className="faq__answer" hidden={!open}>
                <RichBlocks blocks={faq.answer} />
              </div>
            </li>
          );
        })}
      </ol>
    </StaticPage>
  );
}
