/** What every wizard step receives: the state, a way to change it, and the year the year list counts back from. */
import type { EditorState } from '../editor-state.ts';

export interface StepProps {
  state: EditorState;
  update: (change: (state: EditorState) => EditorState) => void;
  currentYear: number;
}

/** Sets one error message (a refused tick or entry) without changing any value. */
export const withError = (state: EditorState, field: string, message: string): EditorState => ({
  ...state,
  errors: { ...state.errors, [field]: message },
});
