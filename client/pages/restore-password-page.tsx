/** The page titled "restore password." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function RestorePasswordPage() {
  return <ComingSoon title="restore password." />;
}
