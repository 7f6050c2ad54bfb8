/** art: its procedures arrive with the feature that owns them (see the open issues); mounted now so the API's shape is fixed. */
import { router } from '../trpc.ts';

export const artRouter = router({});
