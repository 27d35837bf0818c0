/**
 * Pre-registration form: checked with preRegistrationSchema, sent to POST /api/preinscription; errors next to their
 * field and in an error summary that takes the focus; on success a confirmation panel that stays (the reference the
 * acknowledgement mail carries, what happens next) in place of the form; the draft survives a failure and a reload
 * (sessionStorage). Without JavaScript a plain form POST (outcomes.ts). It hydrates at the visitor's first act on it
 * (client:interaction): what was typed meanwhile is adopted, never lost.
 */
import {
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { HTTP_MESSAGES } from '../../lib/http';
import type { Country } from '../forms/countries';
import {
  currentConsent,
  fieldErrors,
  MESSAGES,
  preRegistrationSchema,
  type PreRegistrationDraft as Draft,
} from '../forms/forms';
import { loadDraft, saveDraft } from '../../lib/post-json';
import { valuesTypedBefore } from '../../lib/typed-before-hydration';
import { formSender } from '../forms/submit';
import { showMessage } from '../../stores/banner';
import { ConsentAndNotice, ErrorSummary, Field, type ControlProps, type Problem } from '../forms/FormParts';
import { PreRegistrationReceived } from './PreRegistrationReceived';
import { birthDateBounds, parisDay, PHONE_MAX, SCHOOL_CLASSES } from './request-fields';

const EMPTY: Draft = {
  enfantPrenom: '',
  enfantNom: '',
  enfantNaissance: '',
  classeSouhaitee: '',
  infos: '',
  parentPrenom: '',
  parentNom: '',
  email: '',
  telephone: '',
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

/** sessionStorage key of the unsent draft (the page hydrates the form at once when it is there). */
export const DRAFT_KEY = 'preinscription-brouillon';

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
  // A failure with no field to point at (the service unreachable…), shown in the summary until the next attempt.
  const [failure, setFailure] = useState<string | null>(null);
  // Each failed attempt focuses the summary again.
  const [attempt, setAttempt] = useState(0);
  // The last request received: its reference (null when the answer had none), until another child is pre-registered.
  const [received, setReceived] = useState<{ reference: string | null; count: number } | null>(null);

  // Today (Europe/Paris) bounds the birth date's picker; set after hydration, as the built page may be days old.
  const [today, setToday] = useState<string>();

  // After hydration (so the first render matches the server's), before the visitor's next key: restore an unsent
  // draft after a reload, and adopt what was typed in the server's form while the island loaded (it wins).
  useLayoutEffect(() => {
    const saved = loadDraft(DRAFT_KEY) as Partial<Draft> | null;
    const typed = form.current ? valuesTypedBefore(form.current, EMPTY) : {};
    if (saved || Object.keys(typed).length > 0) {
      const restored = { ...EMPTY, ...saved, ...typed };
      setDraft(restored);
      saveDraft(DRAFT_KEY, restored);
    }
    setToday(parisDay(new Date()));
  }, []);

  function update(next: Draft) {
    setDraft(next);
    if (attempted) setErrors(errorsOf(next));
    saveDraft(DRAFT_KEY, next);
  }

  function onText(event: ChangeEvent<Control>) {
    update({ ...draft, [event.target.name]: event.target.value });
  }

  /**
   * Shows the errors (`fields` in the form's order) next to their fields and in the summary, which takes the focus;
   * `message` (the first error, or the failure) also in the banner, which then does not speak (the summary does).
   */
  function fail(message: string, fields: Record<string, string>) {
    setErrors(fields);
    setFailure(Object.keys(fields).length > 0 ? null : message);
    setAttempt((count) => count + 1);
    showMessage(message, 'error', { announce: false });
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
    setDraft({
      ...draft,
      enfantPrenom: '',
      enfantNom: '',
      enfantNaissance: '',
      classeSouhaitee: '',
      infos: '',
      consentement: false,
    });
    setAttempted(false);
    setErrors({});
    setFailure(null);
    const reference = typeof result.body.reference === 'string' ? result.body.reference : null;
    setReceived({ reference, count: (received?.count ?? 0) + 1 });
    saveDraft(DRAFT_KEY);
    showMessage(result.message || MESSAGES.preRegistrationSuccess, 'success', { announce: false });
  }

  /** Back to the form for a brother or sister: the parent's fields are kept, the focus on the child's first name. */
  function another() {
    setReceived(null);
    requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[name="enfantPrenom"]')?.focus());
  }

  const problems: Problem[] = failure
    ? [{ text: failure }]
    : Object.entries(errors).map(([name, text]) => ({ text, fieldId: name in EMPTY ? `${id}-${name}` : undefined }));

  if (received) {
    return <PreRegistrationReceived {...received} replyDelay={replyDelay} onAnother={another} />;
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
      <ErrorSummary problems={problems} focusKey={attempt} />
      <p className="form__hint" id={`${id}-hint`}>
        Les champs marqués « obligatoire » sont nécessaires pour traiter votre demande.
      </p>

      <fieldset className="form__group">
        <legend>Votre enfant</legend>
        {field('enfantPrenom', 'Prénom de l’enfant', { required: true, autoComplete: 'off' })}
        {field('enfantNom', 'Nom de l’enfant', { required: true, autoComplete: 'off' })}
        {field('enfantNaissance', 'Date de naissance de l’enfant', {
          type: 'date',
          autoComplete: 'off',
          help: 'Facultatif.',
          variant: 'short',
          ...(today && birthDateBounds(today)),
        })}
        {field('classeSouhaitee', 'Classe souhaitée', { help: 'Facultatif.' }, (props) => (
          <select {...props}>
            <option value="">Je ne sais pas encore</option>
            {Object.entries(SCHOOL_CLASSES).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        ))}
        {field(
          'infos',
          'Quelques mots sur votre enfant',
          { help: 'Ses besoins, ce qui l’aide au quotidien… Ce que vous souhaitez nous dire.' },
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
        {field('telephone', 'Votre numéro de téléphone', {
          type: 'tel',
          autoComplete: 'tel',
          inputMode: 'tel',
          maxLength: PHONE_MAX,
          help: 'Facultatif, pour que l’équipe des admissions vous appelle. Il n’est utilisé que pour votre demande.',
        })}
      </fieldset>

      <fieldset className="form__group">
        <legend>Votre adresse</legend>
        {field('adresse', 'Adresse', { autoComplete: 'address-line1' })}
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
    </form>
  );
}
