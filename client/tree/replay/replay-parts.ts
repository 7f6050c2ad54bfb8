/**
 * What the growth replay needs once a viewer asks for it: the history's request, the replay's clock and timeline, and
 * its controls. One module that comes after the tree's first frame (decision 043): the tree page's first code holds
 * only the button that starts the replay (replay-control.tsx).
 */
export { fetchTreeHistory, historySpan } from './history-request.ts';
export { GrowthReplay } from './growth-replay.ts';
export { ReplayBar } from './replay-bar.tsx';
