/** The page titled "register." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function RegistrationPage() {
  return <ComingSoon title="register." />;
}
