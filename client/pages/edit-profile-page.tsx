/** The page titled "manage profile." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function EditProfilePage() {
  return <ComingSoon title="manage profile." />;
}
