/**
 * Parts the site's forms share (newsletter, pre-registration, donation): the consent box with its
 * wording's version, the honeypot, the data-notice link. Not islands on their own: islands render them.
 */
import type { ChangeEvent } from 'react';
import { currentConsent, HONEYPOT_FIELD, type ConsentForm } from './form-rules';

interface ConsentProps {
  /** The checkbox's id (its error's id is `${id}-error`). */
  id: string;
  form: ConsentForm;
  checked: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  /** French message shown next to the box. */
  error?: string | undefined;
}

/** The required consent checkbox, the current wording as its label and its version as a hidden field (proof of consent). */
export function ConsentField({ id, form, checked, onChange, error }: ConsentProps) {
  const consent = currentConsent(form);
  return (
    <div className="field field--check">
      <input
        id={id}
        name="consentement"
        type="checkbox"
        value="true"
        required
        checked={checked}
        onChange={onChange}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      <input type="hidden" name="consentementVersion" value={consent.version} />
      <label htmlFor={id}>
        {consent.text} <span className="field__required">(obligatoire)</span>
      </label>
      {error && (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The hidden field a bot fills and a person never sees (nor reaches with Tab or a screen reader). */
export function Honeypot({ id }: { id: string }) {
  return (
    <div className="visually-hidden" aria-hidden="true">
      <label htmlFor={id}>Ne pas remplir ce champ</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/** The link to the data notice (`href`), shown under every form. */
export function PrivacyLink({ href }: { href: string }) {
  return <a href={href}>Comment nous protégeons vos données personnelles</a>;
}
