/**
 * Donation picker and payment (spec §2 soutenir, §3 payment draft, §4, §7,
 * §9): the amount picker (a radio group, plus previous/next buttons that
 * cycle with wrap-around), the cost after the 66 % tax reduction, the
 * payment draft form, and the two ways to pay:
 *
 * 1. "lien": GET /api/don?id=<amount index> answers {url} of Stripe's hosted
 *    page, opened in a new tab (the tab is opened inside the click handler,
 *    then pointed at the URL, so popup blockers let it through).
 * 2. "integre": POST /create-checkout-session with the draft answers
 *    {clientSecret}; Stripe's embedded checkout is mounted on the page with
 *    @stripe/stripe-js (loaded only here, only when a donor pays).
 *
 * A loading indicator shows for at most 4 s while the session is created
 * (spec §4, §9). The amount is always sent as an index: never a price.
 *
 * Props: publishableKey (string: '' when online payment is not configured;
 * pk_test_… shows the test-mode notice), countries ({code, name}[], France
 * first), privacyHref (string: the data notice).
 */
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { Country } from '../lib/countries';
import {
  DEFAULT_AMOUNT_INDEX,
  DONATION_AMOUNTS_EUR,
  formatEuros,
  stepAmountIndex,
  TAX_CAP_NOTE,
  taxReductionLine,
} from '../lib/donations';
import { fieldErrors, MESSAGES, paymentDraftSchema, type PAYMENT_METHODS, type PaymentDraft } from '../lib/forms';
import { showMessage } from '../stores/banner';
import './donation.css';
import TextField from './TextField';

interface Props {
  publishableKey: string;
  countries: Country[];
  privacyHref: string;
}

type Method = (typeof PAYMENT_METHODS)[number];

/** The donor's part of the payment draft, typed from the shared schema (not re-typed by hand). */
type Donor = Omit<PaymentDraft, 'moyen' | 'somme'>;

type DonorField = keyof Donor;

/** Spec §9: the loading indicator shows for at most 4 seconds. */
export const LOADING_MAX_MS = 4000;

/** Give up on the server after this many milliseconds (the endpoints answer within about 10 s). */
const REQUEST_TIMEOUT_MS = 15_000;

const EMPTY_DONOR: Donor = { prenom: '', nom: '', email: '', adresse: '', postal: '', ville: '', pays: 'FR' };
const ORDER: DonorField[] = ['prenom', 'nom', 'email', 'adresse', 'postal', 'ville', 'pays'];
const PAYMENT_UNAVAILABLE = 'Le paiement en ligne n’est pas disponible pour le moment. Merci de réessayer plus tard.';

/** Fetches JSON from our endpoints; resolves to the body or a French error message, never throws. */
async function requestJson(
  url: string,
  init: RequestInit,
): Promise<
  { ok: true; body: Record<string, unknown> } | { ok: false; message: string; fields: Record<string, string> }
> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.ok) return { ok: true, body };
    const fallback = response.status === 429 ? MESSAGES.tooManyRequests : PAYMENT_UNAVAILABLE;
    const message = typeof body.message === 'string' && body.message ? body.message : fallback;
    const fields = body.fields && typeof body.fields === 'object' ? (body.fields as Record<string, string>) : {};
    return { ok: false, message, fields };
  } catch {
    return { ok: false, message: MESSAGES.network, fields: {} };
  }
}

export default function DonationForm({ publishableKey, countries, privacyHref }: Props) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const checkoutContainer = useRef<HTMLDivElement>(null);
  const checkout = useRef<{ destroy(): void } | null>(null);
  const loadingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [index, setIndex] = useState(DEFAULT_AMOUNT_INDEX);
  const [method, setMethod] = useState<Method>('integre');
  const [donor, setDonor] = useState<Donor>(EMPTY_DONOR);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attempted, setAttempted] = useState(false);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [checkoutShown, setCheckoutShown] = useState(false);
  const [fallbackUrl, setFallbackUrl] = useState<string | null>(null);

  const euros = DONATION_AMOUNTS_EUR[index] ?? DONATION_AMOUNTS_EUR[DEFAULT_AMOUNT_INDEX];
  const configured = publishableKey !== '';
  const testMode = publishableKey.startsWith('pk_test_');

  useEffect(
    () => () => {
      clearTimeout(loadingTimer.current);
      checkout.current?.destroy();
    },
    [],
  );

  function draftFor(nextDonor: Donor) {
    return { moyen: method, somme: index, ...nextDonor };
  }

  function errorsOf(nextDonor: Donor): Record<string, string> {
    const result = paymentDraftSchema.safeParse(draftFor(nextDonor));
    return result.success ? {} : fieldErrors(result.error);
  }

  function onField(event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) {
    const next = { ...donor, [event.target.name as DonorField]: event.target.value };
    setDonor(next);
    if (attempted) setErrors(errorsOf(next));
  }

  function startLoading() {
    setLoading(true);
    clearTimeout(loadingTimer.current);
    loadingTimer.current = setTimeout(() => setLoading(false), LOADING_MAX_MS);
  }

  function stopLoading() {
    clearTimeout(loadingTimer.current);
    setLoading(false);
  }

  function fail(message: string, fields: Record<string, string> = {}) {
    stopLoading();
    setBusy(false);
    if (Object.keys(fields).length > 0) setErrors(fields);
    showMessage(message, 'error');
  }

  /** Hosted page in a new tab: the tab must be opened now, during the click, not after the await. */
  async function payWithLink() {
    const tab = window.open('', '_blank');
    const query = new URLSearchParams({ id: String(index), email: donor.email.trim() });
    const result = await requestJson(`/api/don?${query}`, { headers: { accept: 'application/json' } });
    if (!result.ok || typeof result.body.url !== 'string') {
      tab?.close();
      const message = result.ok ? PAYMENT_UNAVAILABLE : result.message;
      // Spec §7: "an error is only logged"; the donor also gets a message.
      console.error('Donation link failed:', message);
      fail(message);
      return;
    }
    stopLoading();
    setBusy(false);
    if (tab) {
      tab.opener = null;
      tab.location.href = result.body.url;
    } else {
      setFallbackUrl(result.body.url);
    }
  }

  /** Stripe's embedded checkout, mounted below the form. */
  async function payHere() {
    const result = await requestJson('/create-checkout-session', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(draftFor(donor)),
    });
    if (!result.ok || typeof result.body.clientSecret !== 'string') {
      fail(result.ok ? PAYMENT_UNAVAILABLE : result.message, result.ok ? {} : result.fields);
      return;
    }
    const clientSecret = result.body.clientSecret;
    try {
      const { loadStripe } = await import('@stripe/stripe-js/pure');
      const stripe = await loadStripe(publishableKey);
      if (!stripe) throw new Error('Stripe.js did not load');
      checkout.current?.destroy();
      const embedded = await stripe.createEmbeddedCheckoutPage({ fetchClientSecret: async () => clientSecret });
      checkout.current = embedded;
      setCheckoutShown(true);
      if (checkoutContainer.current) embedded.mount(checkoutContainer.current);
      checkoutContainer.current?.focus();
      stopLoading();
      setBusy(false);
    } catch (error) {
      console.error('Embedded checkout failed:', error);
      fail('Le formulaire de paiement n’a pas pu s’afficher. Vérifiez votre connexion puis réessayez.');
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setAttempted(true);
    const found = errorsOf(donor);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = ORDER.find((name) => found[name]);
      showMessage((first && found[first]) || Object.values(found)[0] || MESSAGES.badRequest, 'error');
      if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setBusy(true);
    setFallbackUrl(null);
    startLoading();
    if (method === 'lien') await payWithLink();
    else await payHere();
  }

  function described(name: DonorField) {
    const error = errors[name];
    return {
      id: `${id}-${name}`,
      name,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${id}-${name}-error` : undefined,
    };
  }

  function textField(
    name: Exclude<DonorField, 'pays'>,
    label: string,
    options: {
      autoComplete: string;
      maxLength: number;
      type?: string;
      inputMode?: 'email' | 'numeric';
      short?: boolean;
    },
  ) {
    return (
      <TextField
        {...options}
        required
        id={`${id}-${name}`}
        name={name}
        label={label}
        value={donor[name]}
        onChange={onField}
        error={errors[name]}
      />
    );
  }

  return (
    <div className="donation">
      {testMode && (
        <p className="donation__test" role="note">
          <strong>Version de test :</strong> aucun paiement réel n’est effectué. Pour essayer, utilisez la carte{' '}
          <span className="donation__card">4242 4242 4242 4242</span>, une date d’expiration future et n’importe quel
          code à 3 chiffres.
        </p>
      )}
      <fieldset className="donation__amounts form__group">
        <legend>Montant de votre don</legend>
        <div className="donation__stepper">
          <button
            type="button"
            className="donation__step"
            aria-controls={`${id}-amounts`}
            onClick={() => setIndex((current) => stepAmountIndex(current, -1))}
          >
            <span aria-hidden="true">−</span>
            <span className="visually-hidden">Montant précédent</span>
          </button>
          <p className="donation__amount" aria-hidden="true">
            {formatEuros(euros)}
          </p>
          <button
            type="button"
            className="donation__step"
            aria-controls={`${id}-amounts`}
            onClick={() => setIndex((current) => stepAmountIndex(current, 1))}
          >
            <span aria-hidden="true">+</span>
            <span className="visually-hidden">Montant suivant</span>
          </button>
        </div>
        <div className="donation__choices" id={`${id}-amounts`} role="radiogroup" aria-label="Montants proposés">
          {DONATION_AMOUNTS_EUR.map((amount, amountIndex) => (
            <label key={amount} className="donation__choice">
              <input
                type="radio"
                name="montant"
                value={amountIndex}
                checked={amountIndex === index}
                onChange={() => setIndex(amountIndex)}
              />
              <span>{formatEuros(amount)}</span>
            </label>
          ))}
        </div>
        <p className="donation__tax" aria-live="polite">
          {taxReductionLine(euros)}
        </p>
        <p className="donation__cap">{TAX_CAP_NOTE}</p>
      </fieldset>

      {!configured ? (
        <p className="donation__unavailable">
          Le paiement en ligne n’est pas configuré sur ce site. Vous pouvez nous adresser votre don par chèque, à
          l’adresse indiquée plus bas : nous vous enverrons votre reçu fiscal.
        </p>
      ) : (
        <form ref={form} className="form donation__form" noValidate onSubmit={submit}>
          <fieldset className="form__group">
            <legend>Vos coordonnées (pour le reçu fiscal)</legend>
            {textField('prenom', 'Votre prénom', { autoComplete: 'given-name', maxLength: 100 })}
            {textField('nom', 'Votre nom', { autoComplete: 'family-name', maxLength: 100 })}
            {textField('email', 'Votre email', {
              autoComplete: 'email',
              maxLength: 254,
              type: 'email',
              inputMode: 'email',
            })}
            {textField('adresse', 'Adresse', { autoComplete: 'street-address', maxLength: 200 })}
            {textField('postal', 'Code postal', {
              autoComplete: 'postal-code',
              maxLength: 20,
              inputMode: 'numeric',
              short: true,
            })}
            {textField('ville', 'Ville', { autoComplete: 'address-level2', maxLength: 100 })}
            <div className="field">
              <label htmlFor={`${id}-pays`}>Pays</label>
              <select {...described('pays')} autoComplete="country" value={donor.pays} onChange={onField}>
                {countries.map((country) => (
                  <option key={country.code} value={country.code}>
                    {country.name}
                  </option>
                ))}
              </select>
              {errors.pays && (
                <p id={`${id}-pays-error`} className="field__error">
                  {errors.pays}
                </p>
              )}
            </div>
          </fieldset>

          <fieldset className="form__group">
            <legend>Comment souhaitez-vous payer ?</legend>
            <div className="field field--check">
              <input
                id={`${id}-integre`}
                type="radio"
                name="moyen"
                value="integre"
                checked={method === 'integre'}
                onChange={() => setMethod('integre')}
              />
              <label htmlFor={`${id}-integre`}>Par carte, ici sur cette page</label>
            </div>
            <div className="field field--check">
              <input
                id={`${id}-lien`}
                type="radio"
                name="moyen"
                value="lien"
                checked={method === 'lien'}
                onChange={() => setMethod('lien')}
              />
              <label htmlFor={`${id}-lien`}>Par carte, sur la page sécurisée de Stripe (nouvel onglet)</label>
            </div>
          </fieldset>
          <p className="form__notice">
            Paiement sécurisé par Stripe. <a href={privacyHref}>Comment nous protégeons vos données personnelles</a>
          </p>

          <button type="submit" className="button button--sun form__submit" aria-busy={busy}>
            Faire un don de {formatEuros(euros)}
          </button>
          <p className="donation__status" role="status">
            {loading && (
              <>
                <span className="donation__spinner" aria-hidden="true" />
                Préparation du paiement sécurisé…
              </>
            )}
          </p>
          {fallbackUrl && (
            <p>
              Votre navigateur a bloqué le nouvel onglet.{' '}
              <a href={fallbackUrl} target="_blank" rel="noopener noreferrer">
                Ouvrir la page de paiement sécurisée
              </a>
            </p>
          )}
        </form>
      )}

      <div
        ref={checkoutContainer}
        className="donation__checkout"
        hidden={!checkoutShown}
        tabIndex={-1}
        aria-label="Paiement sécurisé par Stripe"
        role="region"
      />
    </div>
  );
}
