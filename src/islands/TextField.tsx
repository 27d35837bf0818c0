/**
 * One labelled text input of the site's forms (pre-registration, donation):
 * label above the field, "(obligatoire)" in words when required, and the
 * error next to the field, tied to it with aria-describedby and aria-invalid.
 * Not an island on its own: islands render it.
 *
 * Props: id (string, the input's id; the error's id is `${id}-error`), name,
 * label, value, onChange, error? (French message), required?, maxLength?
 * (ignored: the schema checks lengths in code points, while a native `maxlength`
 * counts UTF-16 units and silently cuts a paste), autoComplete, type? ('text'), inputMode?, short? (narrow field).
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
  maxLength?: number;
  autoComplete: string;
  type?: string;
  inputMode?: 'email' | 'numeric';
  short?: boolean;
}

export default function TextField({
  id,
  label,
  error,
  required = false,
  short = false,
  type = 'text',
  maxLength: _schemaLimit,
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
