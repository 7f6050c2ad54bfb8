/**
 * The SIZE step: width, height, depth and units with the proportional rectangle and the .01 depth note, or the
 * no-size box, which hides the dimensions and empties them.
 */
import { useId } from 'react';
import { ART_LIMITS } from '#shared/constants.ts';
import { SelectInput, TextInput } from '../editor-fields.tsx';
import { setNoSize, setValues } from '../editor-state.ts';
import { SizeRectangle } from '../size-rectangle.tsx';
import type { StepProps } from './step-props.ts';

export function SizeStep({ state, update }: StepProps) {
  const id = useId();
  const { values, errors } = state;
  const side = (name: 'width' | 'height' | 'depth', label: string) => (
    <TextInput
      label={label}
      testId={name}
      value={values[name]}
      maxLength={ART_LIMITS.dimension}
      inputMode="decimal"
      error={errors[name]}
      onChange={(value) => update((s) => setValues(s, { [name]: value }))}
    />
  );
  return (
    <>
      <div className="field field--checkbox">
        <input
          id={id}
          className="field__checkbox"
          type="checkbox"
          checked={values.no_size}
          onChange={(event) => {
            const checked = event.currentTarget.checked;
            update((s) => setNoSize(s, checked));
          }}
          data-testid="field-no_size"
        />
        <label className="field__checkbox-label" htmlFor={id}>
          This piece has no physical size (a digital work, for example)
        </label>
      </div>
      {!values.no_size && (
        <div className="editor-size-step" data-testid="dimensions">
          <div className="form-grid form-grid--two">
            {side('width', 'Width')}
            {side('height', 'Height')}
            {side('depth', 'Depth')}
            <SelectInput
              label="Units"
              testId="units"
              value={values.units}
              options={ART_LIMITS.units}
              error={errors.units}
              onChange={(units) => update((s) => setValues(s, { units }))}
            />
          </div>
          <p className="form__note" data-testid="depth-note">
            For flat artwork use .01 as depth.
          </p>
          <SizeRectangle width={values.width} height={values.height} units={values.units} />
        </div>
      )}
    </>
  );
}
