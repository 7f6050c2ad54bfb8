/**
 * The seven-step art wizard (decision 011): the step menu, one step at a time with CONTINUE only when it validates
 * and '< BACK' on every step but the first, EDIT from the confirm summary, SUBMIT, and the live preview beside the
 * form. Submitting sends the piece, then its connections, then hands over to the final screen.
 */
import { personName } from '#shared/people.ts';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ArtForEdit } from '#shared/art-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from '#client/app/current-user.ts';
import { ArtPreview } from './art-preview.tsx';
import { CONFIRM_STEP, STEPS, goToStep, initialEditorState, type EditorState } from './editor-state.ts';
import { useLeaveWarning } from './leave-warning.ts';
import { StepMenu } from './step-menu.tsx';
import { connectionsInput, firstInvalidStep, stepErrors } from './step-checks.ts';
import { ConfirmStep } from './steps/confirm-step.tsx';
import { ConnectionStep } from './steps/connection-step.tsx';
import { DescriptionStep } from './steps/description-step.tsx';
import { CategoryStep, ImageStep, MediumStep } from './steps/piece-steps.tsx';
import { SizeStep } from './steps/size-step.tsx';
import { postArt, submitFailureOf } from './submit-art.ts';
import './editor.css';
import { ConnectionStatus } from '#shared/domain.ts';

const STEP_LEADS: Record<(typeof STEPS)[number], string> = {
  IMAGE: 'Give your piece a title and add up to three images.',
  CATEGORY: 'What kind of piece is it, and when was it made?',
  MEDIUM: 'What is it made with?',
  SIZE: 'How big is it?',
  DESCRIPTION: 'Tell visitors about it.',
  CONNECTION: 'Every square connects to its neighbours: say how your piece connects to the published pieces around it.',
  CONFIRM: 'Check everything once more, then submit it for review.',
};

export function ArtEditor({ data, onSubmitted }: { data: ArtForEdit; onSubmitted: () => void }) {
  const cellToken = data.cell.token;
  const currentYear = new Date().getFullYear();
  const { user } = useCurrentUser();
  const [state, setState] = useState<EditorState>(() => initialEditorState(data));
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  /** Something was entered and not submitted yet: leaving asks first. */
  const [unsaved, setUnsaved] = useState(false);
  useLeaveWarning(unsaved);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const shownStep = useRef(state.step);

  // Failures of the connection fetch are ignored: the step then has nothing to offer.
  const possible = trpc.art.connections.useQuery(
    { cellToken },
    { retry: false, refetchOnWindowFocus: false, staleTime: Infinity },
  );
  const saveConnections = trpc.art.saveConnections.useMutation();
  useEffect(() => {
    if (possible.data) setState((s) => (s.connections.length === 0 ? { ...s, connections: possible.data } : s));
  }, [possible.data]);

  // A new step takes the keyboard (and a screen reader) to its heading.
  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    headingRef.current?.focus();
  }, [state.step]);

  const update = (change: (s: EditorState) => EditorState) => {
    setSubmitError(null);
    setUnsaved(true);
    setState(change);
  };
  const name = STEPS[state.step]!;

  /** Leaves the current step for `target`; forwards only when the current step validates. */
  const moveTo = (target: number) => {
    if (target > state.step) {
      const errors = stepErrors(name, state, currentYear);
      if (Object.keys(errors).length > 0) {
        setState((s) => ({ ...s, errors: { ...s.errors, ...errors } }));
        requestAnimationFrame(() =>
          formRef.current
            ?.querySelector<HTMLElement>('[aria-invalid="true"], .has-error input:not([type="file"])')
            ?.focus(),
        );
        return;
      }
    }
    setState((s) => goToStep(s, target));
  };

  const submit = async () => {
    if (submitting) return;
    const invalid = firstInvalidStep(state, currentYear);
    if (invalid) {
      setState((s) => ({ ...goToStep(s, invalid.step), errors: invalid.errors }));
      return;
    }
    setSubmitting(true);
    setSubmitError(null);
    try {
      await postArt(cellToken, state);
    } catch (error) {
      const failure = submitFailureOf(error);
      setSubmitError(failure.message);
      setState((s) => ({ ...s, errors: failure.fieldErrors }));
      setSubmitting(false);
      return;
    }
    const selected = connectionsInput(state).filter((c) => c.status === ConnectionStatus.Selected);
    // The outcome of the connection update is ignored (decision 011).
    await saveConnections.mutateAsync({ cellToken, connections: selected }).catch(() => undefined);
    setUnsaved(false);
    onSubmitted();
  };

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (state.step === CONFIRM_STEP) void submit();
    else moveTo(state.step + 1);
  };

  const props = { state, update, currentYear };
  const piece = data.art;
  return (
    <div className="editor">
      <StepMenu step={state.step} furthest={state.furthest} onSelect={moveTo} />
      <div className="editor__layout">
        <form ref={formRef} className="editor__form form" onSubmit={onFormSubmit} noValidate data-testid="editor-form">
          <h2 ref={headingRef} tabIndex={-1} className="editor__step-title" data-testid="step-title">
            {name}
          </h2>
          <p className="editor__lead">{STEP_LEADS[name]}</p>
          {name === 'IMAGE' && <ImageStep {...props} picturesLocked={piece?.mainImageLocked ?? false} />}
          {name === 'CATEGORY' && <CategoryStep {...props} />}
          {name === 'MEDIUM' && <MediumStep {...props} />}
          {name === 'SIZE' && <SizeStep {...props} />}
          {name === 'DESCRIPTION' && <DescriptionStep {...props} />}
          {name === 'CONNECTION' && <ConnectionStep {...props} loading={possible.isPending && !possible.isError} />}
          {name === 'CONFIRM' && <ConfirmStep {...props} onEdit={(step) => setState((s) => goToStep(s, step))} />}
          {submitError && (
            <p className="form-message form-message--error" role="alert" data-testid="submit-error">
              {submitError}
            </p>
          )}
          <div className="form__actions editor__actions">
            {state.step > 0 && (
              <button
                type="button"
                className="button button--quiet"
                disabled={submitting}
                onClick={() => moveTo(state.step - 1)}
                data-testid="editor-back"
              >
                &lt; BACK
              </button>
            )}
            <button
              type="submit"
              className="button form__submit"
              disabled={submitting}
              aria-busy={submitting || undefined}
              data-testid="editor-next"
            >
              {state.step === CONFIRM_STEP ? (submitting ? 'Please wait…' : 'SUBMIT') : 'CONTINUE'}
            </button>
          </div>
        </form>
        <ArtPreview state={state} artistName={user ? personName(user) : ''} />
      </div>
    </div>
  );
}
