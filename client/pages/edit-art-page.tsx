/** The page titled "edit." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function EditArtPage() {
  return <ComingSoon title="edit." />;
}
