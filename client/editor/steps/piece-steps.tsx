/** The first three steps of the wizard: IMAGE (title and images), CATEGORY, MEDIUM. */
import {
  ART_LIMITS,
  CATEGORY_OPTIONS,
  MATERIAL_OPTIONS,
  MEDIUM_OPTIONS,
  STYLE_OPTIONS,
  SUBJECT_OPTIONS,
} from '#shared/constants.ts';
import { ART_MESSAGES, yearOptions } from '#shared/validation/art.ts';
import { CheckList, SelectInput, TextInput } from '../editor-fields.tsx';
import { setMedium, setSlot, setValues } from '../editor-state.ts';
import { ImageSlots } from '../image-slots.tsx';
import { withError, type StepProps } from './step-props.ts';

export function ImageStep({ state, update, picturesLocked }: StepProps & { picturesLocked: boolean }) {
  return (
    <>
      <TextInput
        label="Title"
        testId="title"
        value={state.values.title}
        maxLength={ART_LIMITS.title}
        error={state.errors.title}
        onChange={(title) => update((s) => setValues(s, { title }))}
      />
      <ImageSlots
        slots={state.slots}
        picturesLocked={picturesLocked}
        listError={state.errors.files}
        errors={state.errors}
        onChange={(index, slot) => update((s) => setSlot(s, index, slot))}
      />
    </>
  );
}

export function CategoryStep({ state, update, currentYear }: StepProps) {
  const select = (
    name: 'category' | 'subject' | 'style' | 'year',
    label: string,
    options: readonly (string | number)[],
  ) => (
    <SelectInput
      label={label}
      testId={name}
      value={state.values[name]}
      options={options}
      error={state.errors[name]}
      onChange={(value) => update((s) => setValues(s, { [name]: value }))}
    />
  );
  return (
    <div className="form-grid form-grid--two">
      {select('category', 'Category', CATEGORY_OPTIONS)}
      {select('subject', 'Subject', SUBJECT_OPTIONS)}
      {select('style', 'Style', STYLE_OPTIONS)}
      {select('year', 'Year', yearOptions(currentYear))}
    </div>
  );
}

export function MediumStep({ state, update }: StepProps) {
  return (
    <>
      <CheckList
        label="Medium"
        testId="medium"
        values={state.values.medium}
        options={MEDIUM_OPTIONS}
        error={state.errors.medium}
        hint={`Up to ${ART_LIMITS.maxMedium}. Choosing Digital sets materials to Not Applicable.`}
        onChange={(medium) =>
          update((s) =>
            medium.length > ART_LIMITS.maxMedium
              ? withError(s, 'medium', ART_MESSAGES.tooManyMedium)
              : setMedium(s, medium),
          )
        }
      />
      <CheckList
        label="Materials"
        testId="materials"
        values={state.values.materials}
        options={MATERIAL_OPTIONS}
        error={state.errors.materials}
        onChange={(materials) => update((s) => setValues(s, { materials }))}
      />
    </>
  );
}
