/** The page titled "login." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function LoginPage() {
  return <ComingSoon title="login." />;
}
