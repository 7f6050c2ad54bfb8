/** The page titled "profile." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function ProfilePage() {
  return <ComingSoon title="profile." />;
}
