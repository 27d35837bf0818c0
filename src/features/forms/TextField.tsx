/**
 * One labelled text input of the forms: "(obligatoire)" in words when required, the error tied to the
 * field (aria-describedby `${id}-error`, aria-invalid). No native `maxlength`: it counts UTF-16 units
 * and silently cuts a paste; the schema checks FIELD_MAX in code points.
 */
import type { ChangeEvent } from 'react';

interface Props {
  id: string;
  name: string;
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  error?: string | undefined;
  required?: boolean;
  autoComplete: string;
  type?: string;
  inputMode?: 'email' | 'numeric';
  short?: boolean;
}

/** A text input with its label and error; `short` narrows it (postal code). */
export default function TextField({
  id,
  label,
  error,
  required = false,
  short = false,
  type = 'text',
  ...input
}: Props) {
  return (
    <div className={short ? 'field field--short' : 'field'}>
      <label htmlFor={id}>
        {label}
        {required && (
          <>
            {' '}
            <span className="field__required">(obligatoire)</span>
          </>
        )}
      </label>
      <input
        {...input}
        id={id}
        type={type}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
