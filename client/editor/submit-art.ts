/**
 * Sending the piece (decision 011): the multipart POST /api/cell/{cellToken} (docs/api.md) with submit=1, then the
 * selected connections, whose outcome is ignored. A refusal becomes the confirm step's message and field errors.
 */
import type { ErrorBody } from '#shared/errors.ts';
import { apiHeaders } from '#client/api/initial-params.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { errorMessageFor, messages } from '#client/locale/messages.ts';
import { slotIsFilled, type EditorState } from './editor-state.ts';

const LIST_FIELDS = ['medium', 'materials', 'keywords'] as const;
const TEXT_FIELDS = [
  'title',
  'category',
  'subject',
  'style',
  'year',
  'width',
  'height',
  'depth',
  'units',
  'description',
  'ai_use',
] as const;

/** The multipart body: text fields, lists as name[], each image slot as files[i] (new) or pictures[i] (kept) with descriptions[i]. */
export function artFormData(state: EditorState): FormData {
  const form = new FormData();
  const { values } = state;
  for (const name of TEXT_FIELDS) form.append(name, values[name]);
  for (const name of LIST_FIELDS) for (const item of values[name]) form.append(`${name}[]`, item);
  form.append('no_size', values.no_size ? '1' : '0');
  state.slots.filter(slotIsFilled).forEach((slot, index) => {
    if (slot.file) form.append(`files[${index}]`, slot.file, slot.file.name);
    else if (slot.picture) form.append(`pictures[${index}]`, slot.picture);
    form.append(`descriptions[${index}]`, slot.description);
  });
  form.append('submit', '1');
  return form;
}

/** A refused save, carrying the server's error body as a REST answer's `r` and the HTTP status (read by errorBodyOf). */
class SaveRefused extends Error {
  constructor(
    readonly r: ErrorBody | null,
    readonly status: number,
  ) {
    super('The piece was not saved.');
  }
}

/** Saves the piece; the answer's body is not read (the page moves on), only a refusal's. */
export async function postArt(cellToken: string, state: EditorState): Promise<void> {
  const response = await fetch(`/api/cell/${encodeURIComponent(cellToken)}`, {
    method: 'POST',
    headers: apiHeaders(),
    body: artFormData(state),
    credentials: 'same-origin',
  });
  const answer = (await response.json().catch(() => null)) as { r?: unknown } | null;
  if (!response.ok) throw new SaveRefused(errorBodyOf(answer), response.status);
}

export interface SubmitFailure {
  message: string;
  fieldErrors: Record<string, string>;
}

/** The confirm step's text for a failed save: the code's message, followed by the field errors joined. */
export function submitFailureOf(error: unknown): SubmitFailure {
  const body = errorBodyOf(error);
  const fieldErrors: Record<string, string> = {};
  for (const [field, list] of Object.entries(body?.errors ?? {})) {
    const text = list
      .map((m) => m.trim())
      .filter(Boolean)
      .join(' ');
    if (text) fieldErrors[field] = text;
  }
  const lead = errorMessageFor(body?.error) ?? messages.undefinedError;
  return { message: [lead, ...Object.values(fieldErrors)].join(' '), fieldErrors };
}
