/** The page titled "terms." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function TermsPage() {
  return <ComingSoon title="terms." />;
}
