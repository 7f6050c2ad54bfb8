/** The page titled "faqs." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function FaqsPage() {
  return <ComingSoon title="faqs." />;
}
