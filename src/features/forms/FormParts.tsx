/**
 * Parts the site's forms share (newsletter, pre-registration, donation): a labelled field, the consent box with the
 * notice and honeypot, the data-notice link, the error summary and the « Erreur : » page title.
 */
import { useId, useLayoutEffect, useRef, type ChangeEvent, type ReactNode, type RefObject } from 'react';
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

/** One problem of an error summary: its French `text` and, for a field's, the control's `id` it leads to. */
export interface Problem {
  text: string;
  fieldId?: string;
}

/** The page title's prefix while a form shows errors (GOV.UK's pattern). */
export const ERROR_TITLE_PREFIX = 'Erreur : ';

/**
 * Prefixes the page's title with « Erreur : » while `active`, and takes it off when not or when the component goes
 * (the title is what a screen reader says first on a page, and what a tab shows).
 */
export function useErrorTitle(active: boolean): void {
  useLayoutEffect(() => {
    if (!active) return;
    const base = document.title.startsWith(ERROR_TITLE_PREFIX)
      ? document.title.slice(ERROR_TITLE_PREFIX.length)
      : document.title;
    document.title = `${ERROR_TITLE_PREFIX}${base}`;
    return () => {
      if (document.title === `${ERROR_TITLE_PREFIX}${base}`) document.title = base;
    };
  }, [active]);
}

/**
 * The error summary (GOV.UK's pattern): « Il y a un problème » (a heading of `level`, 3 by default) and every problem,
 * each field's a link that focuses its control; the page title says « Erreur : » while it shows. Shown from `problems`
 * (none: nothing rendered); it takes the focus when `focusKey` changes (one per attempt), which is what makes a screen
 * reader read it: it is no live region, so each message is said once.
 */
export function ErrorSummary(props: { problems: Problem[]; focusKey: number; level?: 2 | 3 }) {
  const { problems, focusKey, level = 3 } = props;
  const titleId = useId();
  const box = useFocusOn<HTMLDivElement>(problems.length > 0 ? focusKey : 0);
  useErrorTitle(problems.length > 0);
  if (problems.length === 0) return null;
  const Title = level === 2 ? 'h2' : 'h3';
  return (
    <div ref={box} className="error-summary" tabIndex={-1} role="group" aria-labelledby={titleId}>
      <Title id={titleId} className="error-summary__title">
        Il y a un problème
      </Title>
      <ul className="error-summary__list">
        {problems.map(({ text, fieldId }) => (
          <li key={`${fieldId}:${text}`}>
            {fieldId ? (
              <a href={`#${fieldId}`} onClick={(event) => focusField(event, fieldId)}>
                {text}
              </a>
            ) : (
              text
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Focuses control `id` and shows its label above it (a plain fragment would hide the label under the top edge). */
function focusField(event: { preventDefault(): void }, id: string) {
  const control = document.getElementById(id);
  if (!control) return;
  event.preventDefault();
  const label = document.querySelector(`label[for="${CSS.escape(id)}"]`);
  (label ?? control).scrollIntoView?.({ block: 'start' });
  control.focus({ preventScroll: true });
}

/** A ref to a lasting message that takes the focus each time `key` changes to a positive number. */
export function useFocusOn<T extends HTMLElement>(key: number): RefObject<T | null> {
  const ref = useRef<T>(null);
  // Before paint: the message is read as soon as it shows, and nothing else takes the focus in between.
  useLayoutEffect(() => {
    if (key > 0) ref.current?.focus();
  }, [key]);
  return ref;
}
