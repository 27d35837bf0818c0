/**
 * Pre-registration form: checked with preRegistrationSchema, sent to POST /api/preinscription; errors
 * next to their field, focus on the first; the draft survives a failure and a reload (sessionStorage).
 * Without JavaScript a plain form POST (src/features/forms/outcomes.ts).
 */
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { Country } from './countries';
import {
  currentConsent,
  fieldErrors,
  HONEYPOT_FIELD,
  MESSAGES,
  preRegistrationSchema,
  type PreRegistrationDraft as Draft,
} from './forms';
import { postJson, submissionKeys } from './submit';
import { showMessage } from '../../stores/banner';
import { ConsentField, Honeypot, PrivacyLink } from './FormParts';
import TextFieldInput from './TextField';

interface Props {
  countries: Country[];
  privacyHref: string;
}

type TextField = Exclude<keyof Draft, 'consentement'>;

const EMPTY: Draft = {
  enfantPrenom: '',
  enfantNom: '',
  infos: '',
  parentPrenom: '',
  parentNom: '',
  email: '',
  adresse: '',
  postal: '',
  ville: '',
  pays: 'FR',
  consentement: false,
};

/** Fields in reading order: the first invalid one gets the focus. */
const ORDER = Object.keys(EMPTY) as (keyof Draft)[];

/** The consent wording this form shows, and sends with the draft as proof. */
const CONSENT = currentConsent('preinscription');

/** sessionStorage key of the unsent draft. */
const DRAFT_KEY = 'preinscription-brouillon';

/** What the form sends: the draft and the version of the consent wording shown. */
function payloadOf(draft: Draft): Record<string, unknown> {
  return { ...draft, consentementVersion: CONSENT.version };
}

function errorsOf(draft: Draft): Record<string, string> {
  const result = preRegistrationSchema.safeParse(payloadOf(draft));
  return result.success ? {} : fieldErrors(result.error);
}

export default function PreRegistrationForm({ countries, privacyHref }: Props) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const keys = useRef(submissionKeys());
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const [sending, setSending] = useState(false);
  const [confirmed, setConfirmed] = useState(false);

  // Restore an unsent draft after a reload (after hydration, so the first render matches the server's).
  useEffect(() => {
    try {
      const saved = sessionStorage.getItem(DRAFT_KEY);
      if (saved) setDraft({ ...EMPTY, ...(JSON.parse(saved) as Partial<Draft>) });
    } catch {
      // Private mode or corrupted draft: start empty.
    }
  }, []);

  function update(next: Draft) {
    setDraft(next);
    setConfirmed(false);
    if (attempted) setErrors(errorsOf(next));
    try {
      sessionStorage.setItem(DRAFT_KEY, JSON.stringify(next));
    } catch {
      // Storage full or disabled: the form state still holds everything.
    }
  }

  function onText(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) {
    update({ ...draft, [event.target.name as TextField]: event.target.value });
  }

  function focusFirst(fieldErrorsFound: Record<string, string>) {
    const first = ORDER.find((name) => fieldErrorsFound[name]);
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setAttempted(true);
    const honeypot = String(new FormData(event.currentTarget).get(HONEYPOT_FIELD) ?? '');
    const found = errorsOf(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = ORDER.find((name) => found[name]);
      showMessage((first && found[first]) || Object.values(found)[0] || MESSAGES.badRequest, 'error');
      focusFirst(found);
      return;
    }
    setSending(true);
    // A retry of the same draft carries the same key: one document even if the first attempt landed.
    const payload = { ...payloadOf(draft), envoi: keys.current.keyFor(draft) };
    const result = await postJson(
      '/api/preinscription',
      honeypot ? { ...payload, [HONEYPOT_FIELD]: honeypot } : payload,
    );
    setSending(false);
    if (result.ok) {
      keys.current.forget();
      // Parent and address stay filled in, for a brother or sister.
      const next = { ...draft, enfantPrenom: '', enfantNom: '', infos: '', consentement: false };
      setDraft(next);
      setAttempted(false);
      setErrors({});
      setConfirmed(true);
      try {
        sessionStorage.removeItem(DRAFT_KEY);
      } catch {
        // Nothing to clean.
      }
      showMessage(result.message || MESSAGES.preRegistrationSuccess, 'success');
    } else {
      setErrors(result.fields);
      showMessage(result.message, 'error');
      focusFirst(result.fields);
    }
  }

  /** Props tying a field to its label, help and error. */
  function described(name: keyof Draft, help?: string) {
    const error = errors[name];
    const ids = [help, error ? `${id}-${name}-error` : undefined].filter(Boolean).join(' ');
    return {
      id: `${id}-${name}`,
      name,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': ids || undefined,
    };
  }

  function errorFor(name: keyof Draft) {
    const error = errors[name];
    return error ? (
      <p id={`${id}-${name}-error`} className="field__error">
        {error}
      </p>
    ) : null;
  }

  /** One text input with its label and error (the shape of most fields). */
  function textField(
    name: TextField,
    label: string,
    options: {
      required?: boolean;
      autoComplete: string;
      type?: string;
      inputMode?: 'email' | 'numeric';
      short?: boolean;
    },
  ) {
    return (
      <TextFieldInput
        {...options}
        id={`${id}-${name}`}
        name={name}
        label={label}
        value={draft[name]}
        onChange={onText}
        error={errors[name]}
      />
    );
  }

  return (
    <form
      ref={form}
      className="form"
      method="post"
      action="/api/preinscription"
      noValidate
      onSubmit={submit}
      aria-describedby={`${id}-hint`}
    >
      <p className="form__hint" id={`${id}-hint`}>
        Les champs marqués « obligatoire » sont nécessaires pour traiter votre demande.
      </p>

      <fieldset className="form__group">
        <legend>Votre enfant</legend>
        {textField('enfantPrenom', 'Prénom de l’enfant', { required: true, autoComplete: 'off' })}
        {textField('enfantNom', 'Nom de l’enfant', { required: true, autoComplete: 'off' })}
        <div className="field">
          <label htmlFor={`${id}-infos`}>Quelques mots sur votre enfant</label>
          <p className="field__help" id={`${id}-infos-help`}>
            Son âge, ses besoins, ce qui l’aide au quotidien… Ce que vous souhaitez nous dire.
          </p>
          <textarea {...described('infos', `${id}-infos-help`)} rows={5} value={draft.infos} onChange={onText} />
          {errorFor('infos')}
        </div>
      </fieldset>

      <fieldset className="form__group">
        <legend>Vous, son parent</legend>
        {textField('parentPrenom', 'Votre prénom', { required: true, autoComplete: 'given-name' })}
        {textField('parentNom', 'Votre nom', { required: true, autoComplete: 'family-name' })}
        {textField('email', 'Votre email', {
          required: true,
          autoComplete: 'email',
          type: 'email',
          inputMode: 'email',
        })}
      </fieldset>

      <fieldset className="form__group">
        <legend>Votre adresse</legend>
        {textField('adresse', 'Adresse', { autoComplete: 'street-address' })}
        {textField('postal', 'Code postal', {
          autoComplete: 'postal-code',
          inputMode: 'numeric',
          short: true,
        })}
        {textField('ville', 'Ville', { autoComplete: 'address-level2' })}
        <div className="field">
          <label htmlFor={`${id}-pays`}>Pays</label>
          <select {...described('pays')} autoComplete="country" value={draft.pays} onChange={onText}>
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
          {errorFor('pays')}
        </div>
      </fieldset>

      <ConsentField
        id={`${id}-consentement`}
        form="preinscription"
        checked={draft.consentement}
        onChange={(event) => update({ ...draft, consentement: event.target.checked })}
        error={errors.consentement}
      />
      <p className="form__notice">
        <PrivacyLink href={privacyHref} />
      </p>
      <Honeypot id={`${id}-site`} />

      <button type="submit" className="button button--sun form__submit" aria-busy={sending}>
        {sending ? 'Envoi en cours…' : 'Inscrire mon enfant'}
      </button>
      <p className="form__confirmation" role="status">
        {confirmed ? `${MESSAGES.preRegistrationSuccess}. Nous vous recontactons sous quinze jours.` : ''}
      </p>
    </form>
  );
}
