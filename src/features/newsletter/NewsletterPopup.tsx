/**
 * Newsletter popup: an opener and a native modal <dialog> with email and consent, opening without JavaScript too
 * (invoker commands), closing on Escape, « Fermer » or a tap outside. The schema (forms.ts) loads at the first submit,
 * keeping zod off the home page. A failed submit shows each error by its field and in an error summary that takes the
 * focus; a success shows a confirmation in the dialog, which stays until the visitor closes it; the banner also shows
 * both, silently (the focused message is the one read). A failure keeps the input.
 *
 * Spec §5, as the visitor types: once the email field is touched (left after typing, or a submit tried), « Merci de
 * saisir un email valide » shows under it while it is invalid; « M’inscrire » is aria-disabled while the form is
 * invalid (focusable, described by what is missing; pressing it shows the error summary). Without JavaScript, or until
 * the island hydrates, the form is a plain HTML form whose button is never marked unavailable.
 */
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { isAcceptableEmail } from '../../lib/fields';
import { currentConsent, MESSAGES } from '../forms/form-rules';
import { formSender } from '../forms/submit';
import { showMessage } from '../../stores/banner';
import { ConsentAndNotice, ErrorSummary, Field, useFocusOn, type Problem } from '../forms/FormParts';

type Errors = { email?: string; consentement?: string };

/**
 * The payload's first French problem by the newsletter schema (loaded on first use); null when valid or unloadable (the
 * endpoint checks anyway).
 */
async function schemaProblem(payload: object): Promise<string | null> {
  const forms = await import('../forms/forms').catch(() => null);
  const checked = forms?.newsletterSchema.safeParse(payload);
  return checked && !checked.success ? forms!.firstError(checked.error) : null;
}

/** What is wrong with `email` and `consent` before anything is sent (spec §5's two rules), as the summary says it. */
function localErrors(email: string, consent: boolean): Errors {
  return {
    ...(!isAcceptableEmail(email) && { email: MESSAGES.emailIncorrect }),
    ...(!consent && { consentement: MESSAGES.consentRequired }),
  };
}

/** Why « M’inscrire » is unavailable for `email` and `consent`; undefined when the form is valid. */
function submitNeeds(email: string, consent: boolean): string | undefined {
  const needs = MESSAGES.newsletterSubmitNeeds;
  const emailOk = isAcceptableEmail(email);
  if (emailOk && consent) return undefined;
  return emailOk ? needs.consent : consent ? needs.email : needs.both;
}

/** The opener and its dialog; `privacyHref` is the data notice's address. */
export default function NewsletterPopup({ privacyHref }: { privacyHref: string }) {
  const id = useId();
  const dialogId = `newsletter-${id}`;
  const dialog = useRef<HTMLDialogElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const sender = useRef(formSender('/api/newsletter'));
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  // The email field was left after typing, or a submit was tried: from then on its validity shows under it.
  const [emailTouched, setEmailTouched] = useState(false);
  // False in the server's HTML (a plain form: its button never says it is unavailable), true once hydrated.
  const [hydrated, setHydrated] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [attempted, setAttempted] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [sending, setSending] = useState(false);
  // Counts the successes: the confirmation shows (and takes the focus) from one until the dialog closes.
  const [subscribed, setSubscribed] = useState(0);
  const [confirmationShown, setConfirmationShown] = useState(false);
  const confirmation = useFocusOn<HTMLDivElement>(confirmationShown ? subscribed : 0);

  // The island may hydrate after the visitor opened the dialog and typed (the fields keep what was typed, React's state
  // does not know it): the fields are the truth, whenever hydration comes.
  useLayoutEffect(() => {
    const input = emailInput.current;
    const box = form.current?.elements.namedItem('consentement');
    if (input && input.value !== '') {
      setEmail(input.value);
      if (document.activeElement !== input) setEmailTouched(true);
    }
    if (box instanceof HTMLInputElement && box.checked) setConsent(true);
    setHydrated(true);
  }, []);

  /** Keeps what is typed; once a submit failed, the errors follow it (each goes as soon as its field is right). */
  function edit(nextEmail: string, nextConsent: boolean) {
    setEmail(nextEmail);
    setConsent(nextConsent);
    if (attempted) setErrors(localErrors(nextEmail, nextConsent));
  }

  function open(event: MouseEvent<HTMLButtonElement>) {
    // The button is also an invoker (typed by React only as spread attributes) for visitors without JavaScript.
    event.preventDefault();
    dialog.current?.showModal();
    // Straight to the only field to fill in (the dialog would focus its close button first).
    emailInput.current?.focus();
  }

  /** Shows `found` by their fields (or `message` alone) and in the summary, which takes the focus. */
  function fail(message: string, found: Errors) {
    setErrors(found);
    setFailure(Object.keys(found).length > 0 ? null : message);
    setAttempt((count) => count + 1);
    showMessage(message, 'error', { announce: false });
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setAttempted(true);
    setEmailTouched(true);
    const found = localErrors(email, consent);
    if (found.email || found.consentement) return fail((found.email ?? found.consentement)!, found);
    const form = event.currentTarget;
    const payload = { email, consentement: consent, consentementVersion: currentConsent('newsletter').version };
    setSending(true);
    const problem = await schemaProblem(payload);
    const result = problem
      ? { ok: false, message: problem, fields: { email: problem } as Record<string, string> }
      : await sender.current(payload, form);
    setSending(false);
    if (!result.ok) {
      const { email: emailError, consentement } = result.fields;
      return fail(result.message, { ...(emailError && { email: emailError }), ...(consentement && { consentement }) });
    }
    setEmail('');
    setConsent(false);
    setAttempted(false);
    setEmailTouched(false);
    setErrors({});
    setFailure(null);
    setSubscribed((count) => count + 1);
    setConfirmationShown(true);
    showMessage(result.message || `${MESSAGES.newsletterSuccess} ${MESSAGES.newsletterConfirmByMail}`, 'success', {
      announce: false,
    });
  }

  // A tap on the backdrop closes the dialog: `closedby="any"` where the browser knows it, this listener elsewhere (the
  // dialog element itself is the target of a tap outside its box).
  useEffect(() => {
    const element = dialog.current;
    if (!element || 'closedBy' in HTMLDialogElement.prototype) return;
    const closeOnBackdrop = (event: globalThis.MouseEvent) => {
      const box = element.getBoundingClientRect();
      const inside =
        event.clientX >= box.left &&
        event.clientX <= box.right &&
        event.clientY >= box.top &&
        event.clientY <= box.bottom;
      if (event.target === element && !inside) element.close();
    };
    element.addEventListener('click', closeOnBackdrop);
    return () => element.removeEventListener('click', closeOnBackdrop);
  }, []);

  /** A closed dialog keeps what was typed, not its errors: the page's title loses its « Erreur : ». */
  function closed() {
    setConfirmationShown(false);
    setAttempted(false);
    setEmailTouched(false);
    setErrors({});
    setFailure(null);
  }

  const problems: Problem[] = failure
    ? [{ text: failure }]
    : (['email', 'consentement'] as const)
        .filter((name) => errors[name])
        .map((name) => ({ text: errors[name]!, fieldId: `${dialogId}-${name}` }));
  // Under the field: spec §5's « Merci de saisir un email valide » while the email breaks its rule (the summary says
  // the submit's message); a message the endpoint gave for a locally acceptable email as it came.
  const emailInvalid = !isAcceptableEmail(email);
  const emailError = emailInvalid && (emailTouched || errors.email) ? MESSAGES.emailFieldInvalid : errors.email;
  const needs = hydrated ? submitNeeds(email, consent) : undefined;

  return (
    <>
      <button
        type="button"
        className="button button--sun newsletter__open"
        {...{ commandfor: dialogId, command: 'show-modal' }}
        onClick={open}
      >
        S’inscrire à la lettre d’information
      </button>
      <dialog
        id={dialogId}
        ref={dialog}
        className="site-dialog newsletter"
        aria-labelledby={`${dialogId}-title`}
        {...{ closedby: 'any' }}
        onClose={closed}
      >
        <div className="site-dialog__head">
          <h2 id={`${dialogId}-title`}>Lettre d’information</h2>
          <button
            type="button"
            className="round-button"
            {...{ commandfor: dialogId, command: 'close' }}
            onClick={() => dialog.current?.close()}
          >
            <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
            </svg>
            <span className="visually-hidden">Fermer</span>
          </button>
        </div>
        {confirmationShown ? (
          <div
            ref={confirmation}
            className="confirmation"
            tabIndex={-1}
            role="group"
            aria-labelledby={`${dialogId}-done`}
          >
            <div className="confirmation__panel">
              <h3 id={`${dialogId}-done`}>Plus qu’une étape</h3>
              <p>{MESSAGES.newsletterSuccess}</p>
            </div>
            <p>{MESSAGES.newsletterConfirmByMail}</p>
            <button type="button" className="button button--ghost" onClick={() => dialog.current?.close()}>
              Fermer
            </button>
          </div>
        ) : (
          <>
            <p>Une à deux lettres par mois : la vie de l’école, nos besoins, nos fêtes. Désinscription en un clic.</p>
            <form
              ref={form}
              method="post"
              action="/api/newsletter"
              noValidate
              onSubmit={submit}
              className="newsletter__form"
            >
              <ErrorSummary problems={problems} focusKey={attempt} />
              <Field id={`${dialogId}-email`} label="Votre email" required error={emailError}>
                {(control) => (
                  <input
                    {...control}
                    ref={emailInput}
                    // The dialog's own focus on opening, also before the island hydrates (it loads at the opening):
                    // straight to the only field, as open() does.
                    // eslint-disable-next-line jsx-a11y/no-autofocus
                    autoFocus
                    name="email"
                    type="email"
                    inputMode="email"
                    autoComplete="email"
                    value={email}
                    onChange={(event) => edit(event.target.value, consent)}
                    onBlur={() => email !== '' && setEmailTouched(true)}
                  />
                )}
              </Field>
              <ConsentAndNotice
                id={dialogId}
                form="newsletter"
                checked={consent}
                onChange={(event) => edit(email, event.target.checked)}
                error={errors.consentement}
                privacyHref={privacyHref}
              />
              {/* aria-disabled, not disabled: it stays focusable, says why, and a press shows the summary. */}
              <button
                type="submit"
                className="button newsletter__submit"
                aria-busy={sending}
                aria-disabled={needs ? true : undefined}
                aria-describedby={needs ? `${dialogId}-needs` : undefined}
              >
                {sending ? 'Envoi en cours…' : 'M’inscrire'}
              </button>
              {needs && (
                <p id={`${dialogId}-needs`} className="field__help">
                  {needs}
                </p>
              )}
            </form>
          </>
        )}
      </dialog>
    </>
  );
}
