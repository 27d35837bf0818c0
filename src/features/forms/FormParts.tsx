/**
 * Parts the site's forms share (newsletter, pre-registration, donation): a labelled field, the consent box with the
 * notice and honeypot, the data-notice link.
 */
import type { ChangeEvent, ReactNode } from 'react';
import { currentConsent, HONEYPOT_FIELD, type FormName } from './form-rules';

/** What ties a control to its field: id, required, aria-invalid, aria-describedby (help, error). */
export interface ControlProps {
  id: string;
  required: boolean;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  /** The control's id; its help's is `${id}-help`, its error's `${id}-error`. */
  id: string;
  label: ReactNode;
  required?: boolean;
  help?: string;
  error?: string | undefined;
  /** `short` narrows the control (postal code); `check` puts a checkbox before its label. */
  variant?: 'short' | 'check';
  children: (control: ControlProps) => ReactNode;
}

/** One labelled field: "(obligatoire)" in words when required, the help and the error tied to the control. */
export function Field({ id, label, required = false, help, error, variant, children }: FieldProps) {
  // No native `maxlength`: it counts UTF-16 units and silently cuts a paste; the schema checks FIELD_MAX.
  const describedBy = [help && `${id}-help`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const control = children({ id, required, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy });
  return (
    <div className={variant ? `field field--${variant}` : 'field'}>
      {variant === 'check' && control}
      <label htmlFor={id}>
        {label}
        {required && <span className="field__required"> (obligatoire)</span>}
      </label>
      {help && (
        <p className="field__help" id={`${id}-help`}>
          {help}
        </p>
      )}
      {variant !== 'check' && control}
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * What ends both forms: the required consent box of `form` (its wording as label, its version in a hidden field: proof
 * of consent), the data-notice link, the honeypot.
 */
export function ConsentAndNotice(props: {
  id: string;
  form: FormName;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  error?: string | undefined;
  privacyHref: string;
}) {
  const { version, text } = currentConsent(props.form);
  return (
    <>
      <Field id={`${props.id}-consentement`} label={text} required error={props.error} variant="check">
        {(control) => (
          <>
            <input
              {...control}
              name="consentement"
              type="checkbox"
              value="true"
              checked={props.checked}
              onChange={props.onChange}
            />
            <input type="hidden" name="consentementVersion" value={version} />
          </>
        )}
      </Field>
      <p className="form__notice">
        <PrivacyLink href={props.privacyHref} />
      </p>
      {/* The honeypot: a bot fills it, a person never sees it (nor reaches it with Tab or a screen reader). */}
      <div className="visually-hidden" aria-hidden="true">
        <label htmlFor={`${props.id}-site`}>Ne pas remplir ce champ</label>
        <input id={`${props.id}-site`} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
      </div>
    </>
  );
}

/** The link to the data notice (`href`), shown under every form. */
export function PrivacyLink({ href }: { href: string }) {
  return <a href={href}>Comment nous protégeons vos données personnelles</a>;
}
