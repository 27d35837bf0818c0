/**
 * Donation picker and payment: one-off or monthly, the amount (radio group plus wrap-around stepper), the 66 % line,
 * then one click to Stripe's form here (POST /create-checkout-session) or to Stripe's page in a new tab (POST /api/don).
 */
import { useEffect, useId, useRef, useState, type ComponentProps } from 'react';
import {
  DEFAULT_AMOUNT_INDEX,
  DONATION_AMOUNTS_EUR,
  formatEuros,
  stepAmountIndex,
  TAX_CAP_NOTE,
  taxReductionLine,
} from './donations';
import type { PaymentDraft } from '../forms/forms';
import { postJson } from '../forms/submit';
import { showMessage } from '../../stores/banner';
import { PrivacyLink } from '../forms/FormParts';
import './donation.css';

type Choice = Pick<PaymentDraft, 'somme' | 'frequence'>;

/** sessionStorage key of the donor's choice: /soutenir/annule restores it. */
const CHOICE_KEY = 'petitspas:don';

/** Spec §9: the loading indicator shows for at most 4 seconds. */
const LOADING_MAX_MS = 4000;

const PAYMENT_UNAVAILABLE = 'Le paiement en ligne n’est pas disponible pour le moment. Merci de réessayer plus tard.';

function storeChoice(choice: Choice): void {
  try {
    sessionStorage.setItem(CHOICE_KEY, JSON.stringify(choice));
  } catch {
    // Private browsing without storage: the choice is simply not kept.
  }
}

/** One pill-shaped radio button: `children` its label, the rest the input's attributes. */
function Pill({ children, ...input }: ComponentProps<'input'>) {
  return (
    <label className="donation__choice">
      <input type="radio" {...input} />
      <span>{children}</span>
    </label>
  );
}

/** The island. `publishableKey`: '' when not configured, pk_test_… shows the test notice. */
export default function DonationForm({ publishableKey, privacyHref }: { publishableKey: string; privacyHref: string }) {
  const id = useId();
  const checkoutContainer = useRef<HTMLDivElement>(null);
  const checkout = useRef<{ destroy(): void } | null>(null);
  const loadingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [index, setIndex] = useState(DEFAULT_AMOUNT_INDEX);
  const [frequency, setFrequency] = useState<Choice['frequence']>('ponctuel');
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [checkoutShown, setCheckoutShown] = useState(false);
  const [fallbackUrl, setFallbackUrl] = useState<string | null>(null);

  const euros = DONATION_AMOUNTS_EUR[index] ?? DONATION_AMOUNTS_EUR[DEFAULT_AMOUNT_INDEX];
  const monthly = frequency === 'mensuel';
  const amountLabel = monthly ? `${formatEuros(euros)} par mois` : formatEuros(euros);

  useEffect(() => {
    try {
      const stored = JSON.parse(sessionStorage.getItem(CHOICE_KEY) ?? 'null') as Partial<Choice> | null;
      if (typeof stored?.somme === 'number' && DONATION_AMOUNTS_EUR[stored.somme] !== undefined) {
        setIndex(stored.somme);
        setFrequency(stored.frequence === 'mensuel' ? 'mensuel' : 'ponctuel');
      }
    } catch {
      // Unreadable or no storage: the defaults stay.
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

  /** Ends a payment attempt; `error` goes to the banner. */
  function done(error?: string) {
    clearTimeout(loadingTimer.current);
    setLoading(false);
    setBusy(false);
    if (error) showMessage(error, 'error');
  }

  /** 'lien': Stripe's page in a tab opened now, during the click (popup blockers); 'integre': Stripe's form below. */
  async function pay(moyen: PaymentDraft['moyen']) {
    if (busy) return;
    // Saved before the tab opens: a tab opened by window.open starts with a copy of sessionStorage.
    storeChoice({ somme: index, frequence: frequency });
    const tab = moyen === 'lien' ? window.open('', '_blank') : null;
    setBusy(true);
    setFallbackUrl(null);
    setLoading(true);
    clearTimeout(loadingTimer.current);
    loadingTimer.current = setTimeout(() => setLoading(false), LOADING_MAX_MS);
    const route = moyen === 'lien' ? '/api/don' : '/create-checkout-session';
    const result = await postJson(route, { moyen, somme: index, frequence: frequency }, PAYMENT_UNAVAILABLE);
    const answer = result.body[moyen === 'lien' ? 'url' : 'clientSecret'];
    if (!result.ok || typeof answer !== 'string') {
      tab?.close();
      const message = result.ok ? PAYMENT_UNAVAILABLE : result.message;
      // Spec §7: "an error is only logged"; the donor also gets a message.
      console.error('Donation failed:', message);
      return done(message);
    }
    if (moyen === 'lien') {
      done();
      if (!tab) return setFallbackUrl(answer);
      tab.opener = null;
      tab.location.href = answer;
      return;
    }
    try {
      const { loadStripe } = await import('@stripe/stripe-js/pure');
      const stripe = await loadStripe(publishableKey);
      if (!stripe) throw new Error('Stripe.js did not load');
      checkout.current?.destroy();
      const embedded = await stripe.createEmbeddedCheckoutPage({ fetchClientSecret: async () => answer });
      checkout.current = embedded;
      setCheckoutShown(true);
      if (checkoutContainer.current) embedded.mount(checkoutContainer.current);
      checkoutContainer.current?.focus();
      done();
    } catch (error) {
      console.error('Embedded checkout failed:', error);
      done('Le formulaire de paiement n’a pas pu s’afficher. Vérifiez votre connexion puis réessayez.');
    }
  }

  const step = (delta: number, sign: string, label: string) => (
    <button
      type="button"
      className="round-button donation__step"
      aria-controls={`${id}-amounts`}
      onClick={() => choose({ somme: stepAmountIndex(index, delta) })}
    >
      <span aria-hidden="true">{sign}</span>
      <span className="visually-hidden">{label}</span>
    </button>
  );

  return (
    <div className="donation">
      {publishableKey.startsWith('pk_test_') && (
        <p className="donation__note" role="note">
          <strong>Version de test :</strong> aucun paiement réel n’est effectué. Pour essayer, utilisez la carte{' '}
          <span className="donation__card">4242 4242 4242 4242</span>, une date d’expiration future et n’importe quel
          code à 3 chiffres.
        </p>
      )}
      <fieldset className="donation__frequency form__group">
        <legend>Type de don</legend>
        <div className="donation__choices">
          {(['ponctuel', 'mensuel'] as const).map((value) => (
            <Pill
              key={value}
              name={`${id}-frequence`}
              value={value}
              checked={frequency === value}
              onChange={() => choose({ frequence: value })}
            >
              {`Don ${value}`}
            </Pill>
          ))}
        </div>
      </fieldset>
      <fieldset className="donation__amounts form__group">
        <legend>{monthly ? 'Montant de votre don mensuel' : 'Montant de votre don'}</legend>
        <div className="donation__stepper">
          {step(-1, '−', 'Montant précédent')}
          <p className="donation__amount" aria-hidden="true">
            {formatEuros(euros)}
            {monthly && <span className="donation__period"> / mois</span>}
          </p>
          {step(1, '+', 'Montant suivant')}
        </div>
        <div className="donation__choices" id={`${id}-amounts`} role="radiogroup" aria-label="Montants proposés">
          {DONATION_AMOUNTS_EUR.map((amount, amountIndex) => (
            <Pill
              key={amount}
              name={`${id}-montant`}
              value={amountIndex}
              checked={amountIndex === index}
              onChange={() => choose({ somme: amountIndex })}
            >
              {formatEuros(amount)}
            </Pill>
          ))}
        </div>
        <p className="donation__tax" aria-live="polite">
          {taxReductionLine(euros, monthly)}
        </p>
        <p className="donation__cap">{TAX_CAP_NOTE}</p>
      </fieldset>

      {publishableKey === '' ? (
        <p className="donation__note">
          Le paiement en ligne n’est pas configuré sur ce site. Vous pouvez nous adresser votre don par chèque, à
          l’adresse indiquée plus bas : nous vous enverrons votre reçu fiscal.
        </p>
      ) : (
        <div className="donation__pay">
          <button
            type="button"
            className="button button--sun donation__submit"
            aria-busy={busy}
            onClick={() => pay('integre')}
          >
            {monthly ? `Donner ${amountLabel}` : `Faire un don de ${amountLabel}`}
          </button>
          <button type="button" className="button button--ghost" aria-busy={busy} onClick={() => pay('lien')}>
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
