/**
 * Pre-registration form: checked with preRegistrationSchema, sent to POST /api/preinscription; errors next
 * to their field, focus on the first; the draft survives a failure and a reload (sessionStorage). Without
 * JavaScript a plain form POST (outcomes.ts).
 */
import {
  useEffect,
  useId,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { HTTP_MESSAGES } from '../../lib/http';
import type { Country } from './countries';
import {
  currentConsent,
  fieldErrors,
  MESSAGES,
  preRegistrationSchema,
  type PreRegistrationDraft as Draft,
} from './forms';
import { loadDraft, saveDraft } from '../../lib/submit';
import { formSender } from './submit';
import { showMessage } from '../../stores/banner';
import { ConsentAndNotice, Field, type ControlProps } from './FormParts';

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

/** What `field` passes a control: Field's ties and the draft binding. */
type Bound = ControlProps & { name: string; value: string; onChange: (event: ChangeEvent<Control>) => void };
type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type FieldOptions = { help?: string; variant?: 'short' };

/** sessionStorage key of the unsent draft. */
const DRAFT_KEY = 'preinscription-brouillon';

/** What the form sends: the draft and the version of the consent wording it shows. */
const payloadOf = (draft: Draft) => ({ ...draft, consentementVersion: currentConsent('preinscription').version });

function errorsOf(draft: Draft): Record<string, string> {
  const result = preRegistrationSchema.safeParse(payloadOf(draft));
  return result.success ? {} : fieldErrors(result.error);
}

/**
 * The form; `countries` for the country list (France first), `privacyHref` the data notice's address, `replyDelay` the
 * sentence shown after the spec's success message (editors' text, « Nous vous recontactons sous quinze jours. »).
 */
export default function PreRegistrationForm({
  countries,
  privacyHref,
  replyDelay,
}: {
  countries: Country[];
  privacyHref: string;
  replyDelay: string;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const sender = useRef(formSender('/api/preinscription'));
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const [sending, setSending] = useState(false);
  const [confirmed, setConfirmed] = useState(false);

  // Restore an unsent draft after a reload (after hydration, so the first render matches the server's).
  useEffect(() => {
    const saved = loadDraft(DRAFT_KEY) as Partial<Draft> | null;
    if (saved) setDraft({ ...EMPTY, ...saved });
  }, []);

  function update(next: Draft) {
    setDraft(next);
    setConfirmed(false);
    if (attempted) setErrors(errorsOf(next));
    saveDraft(DRAFT_KEY, next);
  }

  function onText(event: ChangeEvent<Control>) {
    update({ ...draft, [event.target.name]: event.target.value });
  }

  /** Shows the errors (`fields` in the form's order) and `message`, and focuses the first invalid field. */
  function fail(message: string, fields: Record<string, string>) {
    setErrors(fields);
    showMessage(message, 'error');
    const first = Object.keys(fields)[0];
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setAttempted(true);
    const found = errorsOf(draft);
    if (Object.keys(found).length > 0) return fail(Object.values(found)[0] ?? HTTP_MESSAGES.badRequest, found);
    setSending(true);
    const result = await sender.current(payloadOf(draft), event.currentTarget);
    setSending(false);
    if (!result.ok) return fail(result.message, result.fields);
    // Parent and address stay filled in, for a brother or sister.
    setDraft({ ...draft, enfantPrenom: '', enfantNom: '', infos: '', consentement: false });
    setAttempted(false);
    setErrors({});
    setConfirmed(true);
    saveDraft(DRAFT_KEY);
    showMessage(result.message || MESSAGES.preRegistrationSuccess, 'success');
  }

  /** The Field of draft field `name`: a text input with `attributes`, or what `control` renders. */
  function field(
    name: Exclude<keyof Draft, 'consentement'>,
    label: string,
    { required, help, variant, ...attributes }: InputHTMLAttributes<HTMLInputElement> & FieldOptions = {},
    control: (props: Bound) => ReactNode = (props) => <input type="text" {...attributes} {...props} />,
  ) {
    return (
      <Field id={`${id}-${name}`} label={label} error={errors[name]} required={required} help={help} variant={variant}>
        {(props) => control({ ...props, name, value: draft[name], onChange: onText })}
      </Field>
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
        {field('enfantPrenom', 'Prénom de l’enfant', { required: true, autoComplete: 'off' })}
        {field('enfantNom', 'Nom de l’enfant', { required: true, autoComplete: 'off' })}
        {field(
          'infos',
          'Quelques mots sur votre enfant',
          { help: 'Son âge, ses besoins, ce qui l’aide au quotidien… Ce que vous souhaitez nous dire.' },
          (props) => (
            <textarea {...props} rows={5} />
          ),
        )}
      </fieldset>

      <fieldset className="form__group">
        <legend>Vous, son parent</legend>
        {field('parentPrenom', 'Votre prénom', { required: true, autoComplete: 'given-name' })}
        {field('parentNom', 'Votre nom', { required: true, autoComplete: 'family-name' })}
        {field('email', 'Votre email', { required: true, autoComplete: 'email', type: 'email', inputMode: 'email' })}
      </fieldset>

      <fieldset className="form__group">
        <legend>Votre adresse</legend>
        {field('adresse', 'Adresse', { autoComplete: 'street-address' })}
        {field('postal', 'Code postal', { autoComplete: 'postal-code', inputMode: 'numeric', variant: 'short' })}
        {field('ville', 'Ville', { autoComplete: 'address-level2' })}
        {field('pays', 'Pays', {}, (props) => (
          <select {...props} autoComplete="country">
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        ))}
      </fieldset>

      <ConsentAndNotice
        id={id}
        form="preinscription"
        checked={draft.consentement}
        onChange={(event) => update({ ...draft, consentement: event.target.checked })}
        error={errors.consentement}
        privacyHref={privacyHref}
      />

      <button type="submit" className="button button--sun form__submit" aria-busy={sending}>
        {sending ? 'Envoi en cours…' : 'Inscrire mon enfant'}
      </button>
      <p className="form__confirmation" role="status">
        {confirmed ? `${MESSAGES.preRegistrationSuccess}. ${replyDelay}` : ''}
      </p>
    </form>
  );
}
