/** The page titled "learn." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function LearnPage() {
  return <ComingSoon title="learn." />;
}
