/**
 * Donation picker and payment: one-off or monthly, the amount (radio group plus wrap-around stepper),
 * the 66 % line, and two one-click ways to pay: Stripe's form here (POST /create-checkout-session) or
 * Stripe's page in a new tab (POST /api/don). The choice is kept in sessionStorage for the cancel page.
 */
import { useEffect, useId, useRef, useState } from 'react';
import {
  DEFAULT_AMOUNT_INDEX,
  DONATION_AMOUNTS_EUR,
  formatEuros,
  stepAmountIndex,
  TAX_CAP_NOTE,
  taxReductionLine,
} from './donations';
import type { DONATION_FREQUENCIES, PAYMENT_METHODS } from '../forms/forms';
import { postJson } from '../forms/submit';
import { showMessage } from '../../stores/banner';
import { PrivacyLink } from '../forms/FormParts';
import './donation.css';

interface Props {
  publishableKey: string;
  privacyHref: string;
}

type Method = (typeof PAYMENT_METHODS)[number];
type Frequency = (typeof DONATION_FREQUENCIES)[number];

/** The donor's choice, as kept in sessionStorage under CHOICE_KEY. */
interface Choice {
  somme: number;
  frequence: Frequency;
}

/** sessionStorage key of the donor's choice (amount index and frequency). */
export const CHOICE_KEY = 'petitspas:don';

/** Spec §9: the loading indicator shows for at most 4 seconds. */
export const LOADING_MAX_MS = 4000;

const PAYMENT_UNAVAILABLE = 'Le paiement en ligne n’est pas disponible pour le moment. Merci de réessayer plus tard.';

/** The stored choice, or null when there is none or it is not one the page offers. */
function storedChoice(): Choice | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(CHOICE_KEY) ?? 'null') as Partial<Choice> | null;
    const somme = value?.somme;
    if (typeof somme !== 'number' || !Number.isInteger(somme) || DONATION_AMOUNTS_EUR[somme] === undefined) return null;
    return { somme, frequence: value?.frequence === 'mensuel' ? 'mensuel' : 'ponctuel' };
  } catch {
    return null;
  }
}

function storeChoice(choice: Choice): void {
  try {
    sessionStorage.setItem(CHOICE_KEY, JSON.stringify(choice));
  } catch {
    // Private browsing without storage: the choice is simply not kept.
  }
}

/** The island. Props: publishableKey ('' = not configured; pk_test_… shows the test notice), privacyHref. */
export default function DonationForm({ publishableKey, privacyHref }: Props) {
  const id = useId();
  const checkoutContainer = useRef<HTMLDivElement>(null);
  const checkout = useRef<{ destroy(): void } | null>(null);
  const loadingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [index, setIndex] = useState(DEFAULT_AMOUNT_INDEX);
  const [frequency, setFrequency] = useState<Frequency>('ponctuel');
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [checkoutShown, setCheckoutShown] = useState(false);
  const [fallbackUrl, setFallbackUrl] = useState<string | null>(null);

  const euros = DONATION_AMOUNTS_EUR[index] ?? DONATION_AMOUNTS_EUR[DEFAULT_AMOUNT_INDEX];
  const monthly = frequency === 'mensuel';
  const configured = publishableKey !== '';
  const testMode = publishableKey.startsWith('pk_test_');

  useEffect(() => {
    const stored = storedChoice();
    if (stored) {
      setIndex(stored.somme);
      setFrequency(stored.frequence);
    }
    return () => {
      clearTimeout(loadingTimer.current);
      checkout.current?.destroy();
    };
  }, []);

  function choose(next: Partial<Choice>) {
    const choice = { somme: next.somme ?? index, frequence: next.frequence ?? frequency };
    setIndex(choice.somme);
    setFrequency(choice.frequence);
    storeChoice(choice);
  }

  function startLoading() {
    setBusy(true);
    setFallbackUrl(null);
    setLoading(true);
    clearTimeout(loadingTimer.current);
    loadingTimer.current = setTimeout(() => setLoading(false), LOADING_MAX_MS);
  }

  function stopLoading() {
    clearTimeout(loadingTimer.current);
    setLoading(false);
    setBusy(false);
  }

  function fail(message: string) {
    stopLoading();
    showMessage(message, 'error');
  }

  const draft = (moyen: Method) => ({ moyen, somme: index, frequence: frequency });

  /** Stripe's page in a new tab: opened now, during the click (popup blockers), then pointed at the URL. */
  async function payWithLink() {
    if (busy) return;
    // Saved before the tab opens: a tab opened by window.open starts with a copy of sessionStorage.
    storeChoice({ somme: index, frequence: frequency });
    const tab = window.open('', '_blank');
    startLoading();
    const result = await postJson('/api/don', draft('lien'), PAYMENT_UNAVAILABLE);
    if (!result.ok || typeof result.body.url !== 'string') {
      tab?.close();
      const message = result.ok ? PAYMENT_UNAVAILABLE : result.message;
      // Spec §7: "an error is only logged"; the donor also gets a message.
      console.error('Donation link failed:', message);
      fail(message);
      return;
    }
    stopLoading();
    if (tab) {
      tab.opener = null;
      tab.location.href = result.body.url;
    } else {
      setFallbackUrl(result.body.url);
    }
  }

  /** Stripe's embedded checkout, mounted below the buttons. */
  async function payHere() {
    if (busy) return;
    storeChoice({ somme: index, frequence: frequency });
    startLoading();
    const result = await postJson('/create-checkout-session', draft('integre'), PAYMENT_UNAVAILABLE);
    if (!result.ok || typeof result.body.clientSecret !== 'string') {
      fail(result.ok ? PAYMENT_UNAVAILABLE : result.message);
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
    } catch (error) {
      console.error('Embedded checkout failed:', error);
      fail('Le formulaire de paiement n’a pas pu s’afficher. Vérifiez votre connexion puis réessayez.');
    }
  }

  const amountLabel = monthly ? `${formatEuros(euros)} par mois` : formatEuros(euros);

  return (
    <div className="donation">
      {testMode && (
        <p className="donation__test" role="note">
          <strong>Version de test :</strong> aucun paiement réel n’est effectué. Pour essayer, utilisez la carte{' '}
          <span className="donation__card">4242 4242 4242 4242</span>, une date d’expiration future et n’importe quel
          code à 3 chiffres.
        </p>
      )}
      <fieldset className="donation__frequency form__group">
        <legend>Type de don</legend>
        <div className="donation__choices">
          {(
            [
              ['ponctuel', 'Don ponctuel'],
              ['mensuel', 'Don mensuel'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="donation__choice">
              <input
                type="radio"
                name={`${id}-frequence`}
                value={value}
                checked={frequency === value}
                onChange={() => choose({ frequence: value })}
              />
              <span>{label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="donation__amounts form__group">
        <legend>{monthly ? 'Montant de votre don mensuel' : 'Montant de votre don'}</legend>
        <div className="donation__stepper">
          <button
            type="button"
            className="donation__step"
            aria-controls={`${id}-amounts`}
            onClick={() => choose({ somme: stepAmountIndex(index, -1) })}
          >
            <span aria-hidden="true">−</span>
            <span className="visually-hidden">Montant précédent</span>
          </button>
          <p className="donation__amount" aria-hidden="true">
            {formatEuros(euros)}
            {monthly && <span className="donation__period"> / mois</span>}
          </p>
          <button
            type="button"
            className="donation__step"
            aria-controls={`${id}-amounts`}
            onClick={() => choose({ somme: stepAmountIndex(index, 1) })}
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
                name={`${id}-montant`}
                value={amountIndex}
                checked={amountIndex === index}
                onChange={() => choose({ somme: amountIndex })}
              />
              <span>{formatEuros(amount)}</span>
            </label>
          ))}
        </div>
        <p className="donation__tax" aria-live="polite">
          {taxReductionLine(euros, monthly)}
        </p>
        <p className="donation__cap">{TAX_CAP_NOTE}</p>
      </fieldset>

      {!configured ? (
        <p className="donation__unavailable">
          Le paiement en ligne n’est pas configuré sur ce site. Vous pouvez nous adresser votre don par chèque, à
          l’adresse indiquée plus bas : nous vous enverrons votre reçu fiscal.
        </p>
      ) : (
        <div className="donation__pay">
          <button type="button" className="button button--sun donation__submit" aria-busy={busy} onClick={payHere}>
            {monthly ? `Donner ${amountLabel}` : `Faire un don de ${amountLabel}`}
          </button>
          <button type="button" className="button button--ghost" aria-busy={busy} onClick={payWithLink}>
            Payer sur la page sécurisée de Stripe <span className="visually-hidden">(nouvel onglet)</span>
            <span aria-hidden="true"> ↗</span>
          </button>
          <p className="form__notice">
            Paiement sécurisé par Stripe, qui vous demandera votre nom, votre email et votre adresse : ils figurent sur
            votre reçu fiscal. {monthly && 'Vous pourrez arrêter votre don mensuel à tout moment. '}
            <PrivacyLink href={privacyHref} />
          </p>
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
        </div>
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
