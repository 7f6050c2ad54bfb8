/** The page titled "reset password." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function ResetPasswordPage() {
  return <ComingSoon title="reset password." />;
}
