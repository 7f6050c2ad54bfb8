/** The page titled "privacy." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function PrivacyPage() {
  return <ComingSoon title="privacy." />;
}
