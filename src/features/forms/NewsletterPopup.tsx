/**
 * Newsletter popup: an opener and a native modal <dialog> with email and consent, opening without JavaScript
 * too (invoker commands). The schema (forms.ts) loads at the first submit, keeping zod off the home page;
 * messages go to the banner and inside the dialog; a failure keeps the input.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { isAcceptableEmail } from '../../lib/fields';
import { currentConsent, MESSAGES } from './form-rules';
import { formSender } from './submit';
import { $banner, showMessage } from '../../stores/banner';
import { ConsentAndNotice, Field } from './FormParts';

/**
 * The payload's first French problem by the newsletter schema (loaded on first use); null when valid or unloadable (the
 * endpoint checks anyway).
 */
async function schemaProblem(payload: object): Promise<string | null> {
  const forms = await import('./forms').catch(() => null);
  const checked = forms?.newsletterSchema.safeParse(payload);
  return checked && !checked.success ? forms!.firstError(checked.error) : null;
}

/** The opener and its dialog; `privacyHref` is the data notice's address. */
export default function NewsletterPopup({ privacyHref }: { privacyHref: string }) {
  const id = useId();
  const dialogId = `newsletter-${id}`;
  const dialog = useRef<HTMLDialogElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const sender = useRef(formSender('/api/newsletter'));
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const [inDialogMessage, setInDialogMessage] = useState<number | null>(null);
  const banner = useStore($banner);
  // Until hydration the form is a plain HTML form: its button must not look or act disabled.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  const emailValid = !hydrated || isAcceptableEmail(email);
  const showEmailError = touched && !emailValid;
  // Mirrors the banner inside the dialog while the dialog is open (the page behind it is inert).
  const dialogStatus = banner && banner.id === inDialogMessage ? banner : null;

  function open(event: MouseEvent<HTMLButtonElement>) {
    // The button is also an invoker (typed by React only as spread attributes) for visitors without JavaScript.
    event.preventDefault();
    dialog.current?.showModal();
    // Straight to the only field to fill in (the dialog would focus its close button first).
    emailInput.current?.focus();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    // aria-disabled keeps the button focusable: pressing it (or Enter) says what is wrong instead of sending.
    setTouched(true);
    const form = event.currentTarget;
    const payload = { email, consentement: consent, consentementVersion: currentConsent('newsletter').version };
    setSending(true);
    // Spec §5's email rule needs no schema: said at once; the rest waits for the schema's first load.
    const problem = isAcceptableEmail(email) ? await schemaProblem(payload) : MESSAGES.emailIncorrect;
    const result = problem ? { ok: false, message: problem } : await sender.current(payload, form);
    setSending(false);
    if (!result.ok) {
      setInDialogMessage(showMessage(result.message, 'error'));
      if (!isAcceptableEmail(email)) emailInput.current?.focus();
      return;
    }
    setEmail('');
    setConsent(false);
    setTouched(false);
    dialog.current?.close();
    showMessage(result.message || `${MESSAGES.newsletterSuccess} ${MESSAGES.newsletterConfirmByMail}`, 'success');
  }

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
        onClose={() => setInDialogMessage(null)}
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
        <p>Une à deux lettres par mois : la vie de l’école, nos besoins, nos fêtes. Désinscription en un clic.</p>
        <form method="post" action="/api/newsletter" noValidate onSubmit={submit} className="newsletter__form">
          <Field
            id={`${dialogId}-email`}
            label="Votre email"
            required
            error={showEmailError ? MESSAGES.emailFieldInvalid : undefined}
          >
            {(control) => (
              <input
                {...control}
                ref={emailInput}
                name="email"
                type="email"
                inputMode="email"
                autoComplete="email"
                value={email}
                onChange={(event) => {
                  setEmail(event.target.value);
                  setTouched(true);
                }}
              />
            )}
          </Field>
          <ConsentAndNotice
            id={dialogId}
            form="newsletter"
            checked={consent}
            onChange={(event) => setConsent(event.target.checked)}
            privacyHref={privacyHref}
          />
          <button
            type="submit"
            className="button newsletter__submit"
            aria-disabled={!emailValid || sending}
            aria-busy={sending}
          >
            {sending ? 'Envoi en cours…' : 'M’inscrire'}
          </button>
          <p className="newsletter__status" role="status">
            {dialogStatus?.text}
          </p>
        </form>
      </dialog>
    </>
  );
}
