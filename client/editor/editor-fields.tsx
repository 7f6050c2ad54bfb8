/**
 * The editor's field parts, in the form kit's look (client/forms/forms.css): a labelled text box, text area, select,
 * a list of checkboxes (the multi-selects) and a radio group, each with its error beside it. The wizard's values
 * are lists and flags as well as text, so these take a value and an onChange rather than a useForm.
 */
import { useId, type ReactNode } from 'react';

interface FieldFrame {
  label: string;
  error: string | undefined;
  hint?: ReactNode;
  testId: string;
}

function FieldMessages({
  id,
  error,
  hint,
  testId,
}: {
  id: string;
  error: string | undefined;
  hint?: ReactNode;
  testId: string;
}) {
  return (
    <>
      {error && (
        <p className="field__error" id={`${id}-error`} data-testid={`error-${testId}`}>
          {error}
        </p>
      )}
      {hint && (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </>
  );
}

const describedBy = (id: string, error: string | undefined, hint: ReactNode) =>
  [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

/** A single control's frame: its label, the control (given the id and its ARIA), then its error and hint. */
function FieldBox({ frame, children }: { frame: FieldFrame; children: (id: string, aria: ControlAria) => ReactNode }) {
  const id = useId();
  const aria: ControlAria = {
    'aria-invalid': frame.error ? true : undefined,
    'aria-describedby': describedBy(id, frame.error, frame.hint),
    'data-testid': `field-${frame.testId}`,
  };
  return (
    <div className={frame.error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {frame.label}
      </label>
      {children(id, aria)}
      <FieldMessages id={id} error={frame.error} hint={frame.hint} testId={frame.testId} />
    </div>
  );
}

interface ControlAria {
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
  'data-testid': string;
}

/** A group of checkboxes or radios under its legend, laid out in a grid or a row, then its error and hint. */
function ChoiceBox({
  frame,
  layout,
  children,
}: {
  frame: FieldFrame;
  layout: 'grid' | 'row';
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <fieldset
      className={frame.error ? 'field editor-choices has-error' : 'field editor-choices'}
      aria-describedby={describedBy(id, frame.error, frame.hint)}
      data-testid={`field-${frame.testId}`}
    >
      <legend className="field__label">{frame.label}</legend>
      <div className={`editor-choices__${layout}`}>{children(id)}</div>
      <FieldMessages id={id} error={frame.error} hint={frame.hint} testId={frame.testId} />
    </fieldset>
  );
}

export function TextInput(
  props: FieldFrame & { value: string; maxLength?: number; inputMode?: 'decimal'; onChange: (value: string) => void },
) {
  return (
    <FieldBox frame={props}>
      {(id, aria) => (
        <input
          id={id}
          className="field__input"
          type="text"
          value={props.value}
          maxLength={props.maxLength}
          inputMode={props.inputMode}
          onChange={(event) => props.onChange(event.currentTarget.value)}
          {...aria}
        />
      )}
    </FieldBox>
  );
}

export function TextArea(props: FieldFrame & { value: string; maxLength: number; onChange: (value: string) => void }) {
  return (
    <FieldBox frame={props}>
      {(id, aria) => (
        <textarea
          id={id}
          className="field__input editor-textarea"
          value={props.value}
          maxLength={props.maxLength}
          rows={6}
          onChange={(event) => props.onChange(event.currentTarget.value)}
          {...aria}
        />
      )}
    </FieldBox>
  );
}

export function SelectInput(
  props: FieldFrame & { value: string; options: readonly (string | number)[]; onChange: (value: string) => void },
) {
  return (
    <FieldBox frame={props}>
      {(id, aria) => (
        <select
          id={id}
          className="field__input"
          value={props.value}
          onChange={(event) => props.onChange(event.currentTarget.value)}
          {...aria}
        >
          <option value="">Choose…</option>
          {props.options.map((option) => (
            <option key={option} value={String(option)}>
              {option}
            </option>
          ))}
        </select>
      )}
    </FieldBox>
  );
}

/** A multi-select as a group of checkboxes; onChange gets the new list in the options' order (limits are the caller's). */
export function CheckList(
  props: FieldFrame & { values: readonly string[]; options: readonly string[]; onChange: (values: string[]) => void },
) {
  const toggle = (option: string, on: boolean) =>
    props.onChange(
      on
        ? props.options.filter((o) => o === option || props.values.includes(o))
        : props.values.filter((v) => v !== option),
    );
  return (
    <ChoiceBox frame={props} layout="grid">
      {() =>
        props.options.map((option) => (
          <label key={option} className="editor-choice">
            <input
              type="checkbox"
              checked={props.values.includes(option)}
              onChange={(event) => toggle(option, event.currentTarget.checked)}
            />
            <span>{option}</span>
          </label>
        ))
      }
    </ChoiceBox>
  );
}

export function RadioGroup(
  props: FieldFrame & {
    value: string;
    options: readonly { value: string; label: string }[];
    onChange: (value: string) => void;
  },
) {
  return (
    <ChoiceBox frame={props} layout="row">
      {(id) =>
        props.options.map((option) => (
          <label key={option.value} className="editor-choice">
            <input
              type="radio"
              name={id}
              value={option.value}
              checked={props.value === option.value}
              onChange={() => props.onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))
      }
    </ChoiceBox>
  );
}
