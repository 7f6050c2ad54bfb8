/** The DESCRIPTION step: keywords, the description, and how AI was used (honesty, always stated). */
import { AI_USE_LABELS } from '#client/art/art-facts.tsx';
import { AI_USE_OPTIONS, ART_LIMITS } from '#shared/constants.ts';
import { RadioGroup, TextArea } from '../editor-fields.tsx';
import { setValues } from '../editor-state.ts';
import { KeywordsInput } from '../keywords-input.tsx';
import type { StepProps } from './step-props.ts';

const AI_CHOICES = AI_USE_OPTIONS.map((value) => ({ value, label: AI_USE_LABELS[value] }));

export function DescriptionStep({ state, update }: StepProps) {
  return (
    <>
      <KeywordsInput
        keywords={state.values.keywords}
        error={state.errors.keywords}
        onChange={(keywords) => update((s) => setValues(s, { keywords }))}
      />
      <TextArea
        label="Description"
        testId="description"
        value={state.values.description}
        maxLength={ART_LIMITS.description}
        error={state.errors.description}
        onChange={(description) => update((s) => setValues(s, { description }))}
      />
      <RadioGroup
        label="Was AI used to make this piece?"
        testId="ai_use"
        value={state.values.ai_use}
        options={AI_CHOICES}
        error={state.errors.ai_use}
        hint="Honesty is one of our principles: every piece says whether and how AI was used."
        onChange={(ai_use) => update((s) => setValues(s, { ai_use }))}
      />
    </>
  );
}
