/** The page titled "extend reserve." (spec §2); its content arrives in a later issue. */
import { ComingSoon } from './coming-soon.tsx';

export function ExtendReservationPage() {
  return <ComingSoon title="extend reserve." />;
}
