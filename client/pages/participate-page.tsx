/** The page titled "participate." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function ParticipatePage() {
  return <ComingSoon title="participate." />;
}
