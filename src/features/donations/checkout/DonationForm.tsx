/**
 * Donation picker (one-off or monthly, amount radios beside a stepper that wraps around, spec §4), then Stripe's form
 * here or page in a tab. A failure stays in the picker (an error summary that takes the focus) until the next try.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { DONATION_AMOUNTS_EUR, formatEuros, stepAmountIndex } from './donations';
import { DONOR_KINDS } from '../ledger/company-gifts';
import { loadDraft, postJson, saveDraft } from '../../../lib/post-json';
import { showMessage } from '../../../stores/banner';
import { ErrorSummary, PrivacyLink } from '../../forms/FormParts';
import { NoOnlinePaymentNote, TestModeNote } from './DonationNotes';
import type { CheckoutMode, DonorKind, Frequency, PaymentDraft } from './payment-draft';
import './donation.css';

/** The donor's choice: an index in DONATION_AMOUNTS_EUR, one-off or monthly, a person's or a company's gift. */
interface Choice {
  amountIndex: number;
  frequency: Frequency;
  donorKind: DonorKind;
}

// sessionStorage key of the donor's choice: /soutenir/annule restores it.
const CHOICE_KEY = 'don:choix';

/** The choice in the payment draft's (and the stored draft's) field names. */
const asDraft = ({
  amountIndex,
  frequency,
  donorKind,
}: Choice): Pick<PaymentDraft, 'somme' | 'frequence'> & Partial<Pick<PaymentDraft, 'donateur'>> => ({
  somme: amountIndex,
  frequence: frequency,
  // A person's gift is the draft's default: its drafts stay as they were.
  ...(donorKind === 'entreprise' ? { donateur: donorKind } : {}),
});

const AMOUNT_INDEXES = DONATION_AMOUNTS_EUR.map((_, index) => index);

const PAYMENT_UNAVAILABLE = 'Le paiement en ligne n’est pas disponible pour le moment. Merci de réessayer plus tard.';

/** The island. `publishableKey`: '' when not configured, pk_test_… shows the test notice. */
export default function DonationForm({ publishableKey, privacyHref }: { publishableKey: string; privacyHref: string }) {
  const id = useId();
  const checkoutContainer = useRef<HTMLDivElement>(null);
  const checkout = useRef<{ destroy(): void } | null>(null);
  const loadingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [choice, setChoice] = useState<Choice>({ amountIndex: 1, frequency: 'ponctuel', donorKind: 'particulier' });
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [checkoutShown, setCheckoutShown] = useState(false);
  const [fallbackUrl, setFallbackUrl] = useState<string | null>(null);
  // What the stepper's polite live region says: the amount it moved to, '' after any other choice (so that stepping
  // back to an amount said before is said again).
  const [stepped, setStepped] = useState('');
  // The last failure, shown until the next try; each failure focuses it again.
  const [failure, setFailure] = useState<{ text: string; count: number } | null>(null);

  const { amountIndex, frequency, donorKind } = choice;
  const euros = DONATION_AMOUNTS_EUR[amountIndex];
  const monthly = frequency === 'mensuel';

  useEffect(() => {
    const stored = loadDraft(CHOICE_KEY) as Partial<PaymentDraft> | null;
    if (typeof stored?.somme === 'number' && DONATION_AMOUNTS_EUR[stored.somme] !== undefined) {
      setChoice({
        amountIndex: stored.somme,
        frequency: stored.frequence === 'mensuel' ? 'mensuel' : 'ponctuel',
        donorKind: stored.donateur === 'entreprise' ? 'entreprise' : 'particulier',
      });
    }
    return () => {
      clearTimeout(loadingTimer.current);
      checkout.current?.destroy();
    };
  }, []);

  function choose(next: Partial<Choice>) {
    setStepped('');
    setChoice({ ...choice, ...next });
    saveDraft(CHOICE_KEY, asDraft({ ...choice, ...next }));
  }

  function done(error?: string) {
    clearTimeout(loadingTimer.current);
    setLoading(false);
    setBusy(false);
    if (!error) return;
    setFailure({ text: error, count: (failure?.count ?? 0) + 1 });
    showMessage(error, 'error', { announce: false });
  }

  // 'lien': Stripe's page in a tab opened now, during the click (popup blockers); 'integre': Stripe's form below.
  async function pay(checkoutMode: CheckoutMode) {
    if (busy) return;
    // Saved before the tab opens: a tab opened by window.open starts with a copy of sessionStorage.
    saveDraft(CHOICE_KEY, asDraft(choice));
    const tab = checkoutMode === 'lien' ? window.open('', '_blank') : null;
    setBusy(true);
    setFallbackUrl(null);
    setFailure(null);
    setLoading(true);
    // Spec §9: the loading indicator shows for at most 4 seconds.
    loadingTimer.current = setTimeout(() => setLoading(false), 4000);
    const route = checkoutMode === 'lien' ? '/api/don' : '/create-checkout-session';
    const result = await postJson(route, { moyen: checkoutMode, ...asDraft(choice) }, PAYMENT_UNAVAILABLE);
    const answer = result.body[checkoutMode === 'lien' ? 'url' : 'clientSecret'];
    if (!result.ok || typeof answer !== 'string') {
      tab?.close();
      const message = result.ok ? PAYMENT_UNAVAILABLE : result.message;
      // Spec §7: "an error is only logged"; the donor also gets a message.
      console.error('Donation failed:', message);
      return done(message);
    }
    if (checkoutMode === 'lien') {
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

  const pills = <K extends keyof Choice>(key: K, values: readonly Choice[K][], label: (value: Choice[K]) => string) =>
    values.map((value) => (
      <label key={value} className="donation__choice">
        <input
          type="radio"
          name={`${id}-${key}`}
          value={value}
          checked={choice[key] === value}
          onChange={() => choose({ [key]: value })}
        />
        <span>{label(value)}</span>
      </label>
    ));

  /** Moves to the previous (-1) or next (+1) amount, wrapping around, and says the new one once. */
  function stepTo(delta: number) {
    const next = stepAmountIndex(amountIndex, delta);
    choose({ amountIndex: next });
    setStepped(`${formatEuros(DONATION_AMOUNTS_EUR[next])}${monthly ? ' par mois' : ''}`);
  }

  const step = (delta: number, sign: string, label: string) => (
    <button
      type="button"
      className="round-button donation__step"
      aria-controls={`${id}-amounts`}
      onClick={() => stepTo(delta)}
    >
      <span aria-hidden="true">{sign}</span>
      <span className="visually-hidden">{label}</span>
    </button>
  );

  return (
    <div className="donation">
      <ErrorSummary problems={failure ? [{ text: failure.text }] : []} focusKey={failure?.count ?? 0} />
      {publishableKey.startsWith('pk_test_') && <TestModeNote />}
      <fieldset className="donation__frequency form__group">
        <legend>Type de don</legend>
        <div className="donation__choices">
          {pills('frequency', ['ponctuel', 'mensuel'], (value) => `Don ${value}`)}
        </div>
      </fieldset>
      <fieldset className="donation__donor form__group">
        <legend>Donateur</legend>
        <div className="donation__choices">
          {pills('donorKind', ['particulier', 'entreprise'], (value) => DONOR_KINDS[value].label)}
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
          {/* The stepper keeps the focus: this says where it went (a radio says itself when chosen). */}
          <p className="visually-hidden" role="status">
            {stepped}
          </p>
        </div>
        <div className="donation__choices" id={`${id}-amounts`} role="radiogroup" aria-label="Montants proposés">
          {pills('amountIndex', AMOUNT_INDEXES, (value) => formatEuros(DONATION_AMOUNTS_EUR[value]))}
        </div>
        {/* Not live: the stepper's region says the amount, a radio says itself; the line is read in its turn. */}
        <p className="donation__tax">{DONOR_KINDS[donorKind].taxLine(euros, monthly)}</p>
        <p className="donation__cap">{DONOR_KINDS[donorKind].cap}</p>
      </fieldset>

      {publishableKey === '' ? (
        <NoOnlinePaymentNote />
      ) : (
        <div className="donation__pay">
          <button
            type="button"
            className="button button--sun donation__submit"
            aria-busy={busy}
            onClick={() => pay('integre')}
          >
            {monthly ? `Donner ${formatEuros(euros)} par mois` : `Faire un don de ${formatEuros(euros)}`}
          </button>
          <button type="button" className="button button--ghost" aria-busy={busy} onClick={() => pay('lien')}>
            Payer sur la page sécurisée de Stripe <span className="visually-hidden">(nouvel onglet)</span>
            <span aria-hidden="true"> ↗</span>
          </button>
          <p className="form__notice">
            {DONOR_KINDS[donorKind].notice}{' '}
            {monthly && 'Vous pourrez modifier ou arrêter votre don mensuel à tout moment. '}
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
