/**
 * Whether a wizard step may be left forwards (decision 011): each step is checked with its schema from
 * shared/validation/art.ts, the same one the server saves with, so the messages are the server's.
 */
import * as v from 'valibot';
import { artStepSchemas, imageListErrors } from '#shared/validation/art.ts';
import { firstErrors } from '#shared/validation/rules.ts';
import { STEPS, slotIsFilled, type EditorState, type StepName } from './editor-state.ts';

export type StepErrors = Record<string, string>;

function schemaErrors(schema: v.GenericSchema, input: unknown): StepErrors {
  const result = v.safeParse(schema, input);
  return result.success ? {} : firstErrors(result.issues);
}

function imageErrors(state: EditorState): StepErrors {
  const errors: StepErrors = {};
  state.slots.forEach((slot, index) => {
    if (slot.error) errors[`files.${index}`] = slot.error;
  });
  return { ...imageListErrors(state.slots.map((slot) => (slotIsFilled(slot) ? slot : null))), ...errors };
}

/** The connections as the server takes them: the neighbour's cell token, selected or not, the description. */
export const connectionsInput = (state: EditorState) =>
  state.connections.map(({ token, status, description }) => ({ token, status, description }));

/** The errors that keep a step from being left forwards; empty when it validates. */
export function stepErrors(step: StepName, state: EditorState, currentYear: number): StepErrors {
  const schemas = artStepSchemas(currentYear);
  switch (step) {
    case 'IMAGE':
      return { ...schemaErrors(schemas.IMAGE, state.values), ...imageErrors(state) };
    case 'CONNECTION':
      return schemaErrors(schemas.CONNECTION, { connections: connectionsInput(state) });
    case 'CONFIRM':
      return {};
    default:
      return schemaErrors(schemas[step], state.values);
  }
}

/** The first step that does not validate, with its errors; null when the whole piece may be sent. */
export function firstInvalidStep(state: EditorState, currentYear: number): { step: number; errors: StepErrors } | null {
  for (const [index, name] of STEPS.entries()) {
    const errors = stepErrors(name, state, currentYear);
    if (Object.keys(errors).length > 0) return { step: index, errors };
  }
  return null;
}
