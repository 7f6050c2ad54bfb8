/** The page titled "contact." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function ContactPage() {
  return <ComingSoon title="contact." />;
}
