/**
 * Contact ('contact.'): e-mail, reason, subject and message, checked in the browser with the shared contact schema
 * (the server checks the same); a refusal shows field errors and the server's message at once (decision 007). A
 * signed-in visitor's address is filled in for them.
 */
import { useId } from 'react';
import { CONTACT_LIMITS, CONTACT_REASONS } from '#shared/constants.ts';
import { contactSchema, type ContactMessage } from '#shared/validation/contact.ts';
import { trpc } from '#client/api/trpc.ts';
import { ContactDetails } from '#client/app/contact-details.tsx';
import { useCurrentUser } from '#client/app/current-user.ts';
import { FormMessage, SubmitButton, TextField } from '#client/forms/fields.tsx';
import { useForm, type Form } from '#client/forms/use-form.ts';
import { CONTACT_COPY } from './copy/contact.ts';
import { RichInline } from './static/rich-text.tsx';
import { StaticPage } from './static/static-page.tsx';

type ContactValues = { email: string; reason: string; subject: string; message: string };

export function ContactPage() {
  const { user } = useCurrentUser();
  const send = trpc.misc.contact.useMutation();
  const form = useForm<ContactValues, ContactMessage>({
    initialValues: { email: user?.email ?? '', reason: '', subject: '', message: '' },
    schema: contactSchema,
    errorMode: 'fields-and-message',
    onSubmit: async (input, actions) => {
      await send.mutateAsync(input);
      actions.resetValues({ email: user?.email ?? '', reason: '', subject: '', message: '' });
      actions.showSuccess(CONTACT_COPY.successContact);
    },
  });

  return (
    <StaticPage title="contact." eyebrow="write to us" lead={CONTACT_COPY.lead} className="static-page--contact">
      <div className="contact-layout">
        <form className="form form-card contact-form" onSubmit={form.handleSubmit} noValidate aria-label="Contact us">
          <TextField
            form={form}
            name="email"
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            maxLength={CONTACT_LIMITS.email}
          />
          <SelectField
            form={form}
            name="reason"
            label="Reason"
            placeholder={CONTACT_COPY.reasonPlaceholder}
            options={CONTACT_REASONS}
          />
          <TextField form={form} name="subject" label="Subject" maxLength={CONTACT_LIMITS.subject} />
          <TextAreaField form={form} name="message" label="Message" maxLength={CONTACT_LIMITS.message} rows={7} />
          <FormMessage notice={form.notice} />
          <SubmitButton submitting={form.submitting} busyLabel="Sending…">
            Send message
          </SubmitButton>
        </form>
        <aside className="contact-aside">
          <p className="eyebrow">{CONTACT_COPY.asideTitle}</p>
          <p>
            <RichInline text={CONTACT_COPY.aside} />
          </p>
          <ContactDetails className="contact-aside__details" />
        </aside>
      </div>
    </StaticPage>
  );
}

interface FieldProps {
  form: Form<ContactValues>;
  name: keyof ContactValues;
  label: string;
}

function useFieldIds(form: Form<ContactValues>, name: string) {
  const id = useId();
  const error = form.fieldErrors[name];
  return { id, error, errorId: error ? `${id}-error` : undefined };
}

function FieldError({ id, name, error }: { id: string | undefined; name: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p className="field__error" id={id} data-testid={`error-${name}`}>
      {error}
    </p>
  );
}

function SelectField({
  form,
  name,
  label,
  placeholder,
  options,
}: FieldProps & { placeholder: string; options: readonly string[] }) {
  const { id, error, errorId } = useFieldIds(form, name);
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        name={name}
        className="field__input field__select"
        value={form.values[name]}
        onChange={(event) => form.setValue(name, event.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
      >
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
      <FieldError id={errorId} name={name} error={error} />
    </div>
  );
}

function TextAreaField({ form, name, label, maxLength, rows }: FieldProps & { maxLength: number; rows: number }) {
  const { id, error, errorId } = useFieldIds(form, name);
  const length = form.values[name].length;
  const countId = `${id}-count`;
  return (
    <div className={error ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        className="field__input field__textarea"
        rows={rows}
        maxLength={maxLength}
        value={form.values[name]}
        onChange={(event) => form.setValue(name, event.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[errorId, countId].filter(Boolean).join(' ')}
      />
      <FieldError id={errorId} name={name} error={error} />
      <p className="field__hint field__count" id={countId}>
        {length} / {maxLength}
      </p>
    </div>
  );
}
