/**
 * Donation picker (one-off or monthly, amount radios beside a stepper that wraps around, spec §4, or « Autre montant »
 * typed in euros), then Stripe's form here or page in a tab. A failure stays in the picker (an error summary that takes
 * the focus) until the next try; when Stripe's script cannot load, it leads to the hosted page's button. It hydrates at
 * the visitor's first act on it (client:interaction): a choice made meanwhile is adopted, a button pressed meanwhile
 * works once it has hydrated. Its server HTML is a form that pays without JavaScript: the radios post the payment
 * draft's fields, « Autre montant » shows its field (CSS), and both buttons submit to POST /api/don, which answers 303
 * to Stripe's page (docs/donations.md).
 */
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { DONATION_AMOUNTS_EUR, formatEuros, parseOwnAmount, stepAmountIndex, stepFromOwnAmount } from './donations';
import { DONOR_KINDS } from '../ledger/company-gifts';
import { loadDraft, postJson, saveDraft } from '../../../lib/post-json';
import { useHydrated, valuesTypedBefore } from '../../../lib/typed-before-hydration';
import { showMessage } from '../../../stores/banner';
import { ErrorSummary, Field, PrivacyLink } from '../../forms/FormParts';
import { NoOnlinePaymentNote, TestModeNote } from './DonationNotes';
import {
  OWN_AMOUNT_CHOICE,
  type CheckoutMode,
  type DonorKind,
  type Frequency,
  type PaymentDraftInput,
} from './payment-draft';
import './donation.css';

/**
 * The donor's choice: an index in DONATION_AMOUNTS_EUR or OWN (« Autre montant », then `ownAmount` as typed, in
 * euros), one-off or monthly, a person's or a company's gift.
 */
interface Choice {
  amountIndex: number | typeof OWN;
  ownAmount: string;
  frequency: Frequency;
  donorKind: DonorKind;
}

/** The « Autre montant » radio's value. */
const OWN = OWN_AMOUNT_CHOICE;

/** Each radio group's name: the payment draft's field that the form posted without JavaScript carries. */
const FIELD_NAMES = {
  amountIndex: 'somme',
  frequency: 'frequence',
  donorKind: 'donateur',
} as const satisfies Record<Exclude<keyof Choice, 'ownAmount'>, keyof PaymentDraftInput>;

/** The « Autre montant » field's name in the form posted without JavaScript. */
const OWN_FIELD_NAME = 'autreMontant' satisfies keyof PaymentDraftInput;

/** sessionStorage key of the donor's choice: /soutenir/annule restores it (the page hydrates the form at once then). */
export const CHOICE_KEY = 'don:choix';

/** The choice the page opens with: 25 €, once, a person's gift. */
const FIRST_CHOICE: Choice = { amountIndex: 1, ownAmount: '', frequency: 'ponctuel', donorKind: 'particulier' };

/** The server form's fields as it renders FIRST_CHOICE: what valuesTypedBefore compares the page with. */
const FIRST_FIELDS = {
  [FIELD_NAMES.amountIndex]: String(FIRST_CHOICE.amountIndex),
  [FIELD_NAMES.frequency]: FIRST_CHOICE.frequency,
  [FIELD_NAMES.donorKind]: FIRST_CHOICE.donorKind,
  [OWN_FIELD_NAME]: '',
};

/** The choice the page's radios show: `checked(field)` is the value of the field's checked radio, as rendered. */
function choiceOfRadios(checked: (field: keyof typeof FIELD_NAMES) => string | undefined): Choice {
  const amount = checked('amountIndex');
  const index = amount === OWN ? OWN : amount === undefined ? undefined : Number(amount);
  const frequency = checked('frequency');
  const donorKind = checked('donorKind');
  return {
    ...FIRST_CHOICE,
    ...(index === OWN || (index !== undefined && DONATION_AMOUNTS_EUR[index] !== undefined)
      ? { amountIndex: index }
      : {}),
    ...(frequency === 'ponctuel' || frequency === 'mensuel' ? { frequency } : {}),
    ...(donorKind === 'particulier' || donorKind === 'entreprise' ? { donorKind } : {}),
  };
}

/** The choice in the payment draft's (and the stored draft's) field names: the euros as typed, never cents. */
const asDraft = ({
  amountIndex,
  ownAmount,
  frequency,
  donorKind,
}: Choice): Pick<PaymentDraftInput, 'somme' | 'autreMontant' | 'frequence' | 'donateur'> => ({
  ...(amountIndex === OWN ? { autreMontant: ownAmount } : { somme: amountIndex }),
  frequence: frequency,
  // A person's gift is the draft's default: its drafts stay as they were.
  ...(donorKind === 'entreprise' ? { donateur: donorKind } : {}),
});

const AMOUNT_CHOICES: Choice['amountIndex'][] = [...DONATION_AMOUNTS_EUR.map((_, index) => index), OWN];

const PAYMENT_UNAVAILABLE = 'Le paiement en ligne n’est pas disponible pour le moment. Merci de réessayer plus tard.';

/** The hosted page's button, as the donor reads it: the way to pay when Stripe's form cannot show here. */
const HOSTED_BUTTON = 'Payer sur la page sécurisée de Stripe';

/** Stripe's script did not load (offline, blocked by an extension or a network): the message leads to HOSTED_BUTTON. */
export const STRIPE_SCRIPT_FAILED =
  'Le formulaire de paiement de Stripe n’a pas pu s’afficher sur cette page (connexion interrompue ou bloqueur de ' +
  `contenu). Aucun montant n’a été débité. Payez plutôt sur le site de Stripe : bouton « ${HOSTED_BUTTON} », ` +
  'juste en dessous.';

/** The island. `publishableKey`: '' when not configured, pk_test_… shows the test notice. */
export default function DonationForm({ publishableKey, privacyHref }: { publishableKey: string; privacyHref: string }) {
  const id = useId();
  // False in the server's HTML (what works without JavaScript) and while it hydrates.
  const hydrated = useHydrated();
  const root = useRef<HTMLFormElement>(null);
  const checkoutContainer = useRef<HTMLDivElement>(null);
  const checkout = useRef<{ destroy(): void } | null>(null);
  const loadingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [choice, setChoice] = useState<Choice>(FIRST_CHOICE);
  // The own amount's error, shown beside its field once the donor tried to pay (not on leaving the field: the line it
  // adds would move the button being clicked).
  const [ownError, setOwnError] = useState<string | undefined>(undefined);
  const ownField = useRef<HTMLInputElement>(null);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [checkoutShown, setCheckoutShown] = useState(false);
  const [fallbackUrl, setFallbackUrl] = useState<string | null>(null);
  // What the stepper's polite live region says: the amount it moved to, '' after any other choice (so that stepping
  // back to an amount said before is said again).
  const [stepped, setStepped] = useState('');
  // The last failure, shown until the next try; each failure focuses it again; `fieldId` the control it leads to.
  const [failure, setFailure] = useState<{ text: string; fieldId?: string; count: number } | null>(null);

  const { amountIndex, ownAmount, frequency, donorKind } = choice;
  const own = amountIndex === OWN;
  const ownParsed = parseOwnAmount(ownAmount);
  // The chosen amount in euros; undefined while « Autre montant » holds no valid amount.
  const euros = own ? ('cents' in ownParsed ? ownParsed.cents / 100 : undefined) : DONATION_AMOUNTS_EUR[amountIndex];
  const monthly = frequency === 'mensuel';
  const ownId = `${id}-own`;
  const hostedId = `${id}-hosted`;

  // The radios chosen (and the own amount typed) in the server's form before it hydrated: kept, before the next render
  // writes the defaults back.
  useLayoutEffect(() => {
    if (!root.current) return;
    const typed = valuesTypedBefore(root.current, FIRST_FIELDS);
    const shown = choiceOfRadios((field) => typed[FIELD_NAMES[field]]);
    if ((['amountIndex', 'frequency', 'donorKind'] as const).every((key) => shown[key] === FIRST_CHOICE[key])) return;
    if (shown.amountIndex === OWN) shown.ownAmount = typed[OWN_FIELD_NAME] ?? '';
    setChoice(shown);
    saveDraft(CHOICE_KEY, asDraft(shown));
  }, []);

  useEffect(() => {
    const stored = loadDraft(CHOICE_KEY) as Partial<PaymentDraftInput> | null;
    const storedIndex = stored?.somme;
    const storedOwn = stored?.autreMontant;
    const kept =
      typeof storedIndex === 'number' && DONATION_AMOUNTS_EUR[storedIndex] !== undefined
        ? { amountIndex: storedIndex, ownAmount: '' }
        : typeof storedOwn === 'string'
          ? { amountIndex: OWN, ownAmount: storedOwn }
          : undefined;
    if (kept) {
      setChoice({
        ...kept,
        frequency: stored?.frequence === 'mensuel' ? 'mensuel' : 'ponctuel',
        donorKind: stored?.donateur === 'entreprise' ? 'entreprise' : 'particulier',
      });
    }
    return () => {
      clearTimeout(loadingTimer.current);
      checkout.current?.destroy();
    };
  }, []);

  function choose(next: Partial<Choice>) {
    setStepped('');
    if (next.amountIndex !== undefined) setOwnError(undefined);
    setChoice({ ...choice, ...next });
    saveDraft(CHOICE_KEY, asDraft({ ...choice, ...next }));
  }

  /** Ends a try; `error` stays in the summary (leading to `fieldId`), and shows in the banner for 4 s. */
  function done(error?: string, fieldId?: string) {
    clearTimeout(loadingTimer.current);
    setLoading(false);
    setBusy(false);
    if (!error) return;
    setFailure({ text: error, ...(fieldId ? { fieldId } : {}), count: (failure?.count ?? 0) + 1 });
    showMessage(error, 'error', { announce: false });
  }

  // 'lien': Stripe's page in a tab opened now, during the click (popup blockers); 'integre': Stripe's form below.
  async function pay(checkoutMode: CheckoutMode) {
    if (busy) return;
    if (own && 'error' in ownParsed) {
      // Nothing is sent: the field says why and takes the focus.
      setFailure(null);
      setOwnError(ownParsed.error);
      ownField.current?.focus();
      return;
    }
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
      const ownRefused = result.fields?.autreMontant;
      if (ownRefused) setOwnError(ownRefused);
      return done(message, ownRefused ? ownId : undefined);
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
      // loadStripe rejects when js.stripe.com cannot be reached (offline, an ad blocker, a filtering network).
      console.error('Embedded checkout failed:', error);
      done(STRIPE_SCRIPT_FAILED, hostedId);
    }
  }

  const pills = <K extends keyof typeof FIELD_NAMES>(
    key: K,
    values: readonly Choice[K][],
    label: (value: Choice[K]) => string,
  ) =>
    values.map((value) => (
      <label key={value} className="donation__choice">
        <input
          type="radio"
          name={FIELD_NAMES[key]}
          value={value}
          checked={choice[key] === value}
          onChange={() => choose({ [key]: value })}
        />
        <span>{label(value)}</span>
      </label>
    ));

  /**
   * Moves to the previous (-1) or next (+1) amount, wrapping around, and says the new one once; from « Autre montant »,
   * to the proposed amount beside the one typed.
   */
  function stepTo(delta: number) {
    const next = own ? stepFromOwnAmount(euros, delta) : stepAmountIndex(amountIndex, delta);
    choose({ amountIndex: next });
    setStepped(`${formatEuros(DONATION_AMOUNTS_EUR[next])}${monthly ? ' par mois' : ''}`);
  }

  const amountLabel = (value: Choice['amountIndex']) =>
    value === OWN ? 'Autre montant' : formatEuros(DONATION_AMOUNTS_EUR[value]);

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
    // Without JavaScript (or when its script failed), the form posts the draft's fields to the hosted page's endpoint;
    // with it, nothing submits the form: the buttons pay through `pay`, Enter in « Autre montant » does nothing.
    <form className="donation" ref={root} method="post" action="/api/don" onSubmit={(event) => event.preventDefault()}>
      <ErrorSummary
        problems={failure ? [{ text: failure.text, ...(failure.fieldId ? { fieldId: failure.fieldId } : {}) }] : []}
        focusKey={failure?.count ?? 0}
      />
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
            {euros === undefined ? '… €' : formatEuros(euros)}
            {monthly && <span className="donation__period"> / mois</span>}
          </p>
          {step(1, '+', 'Montant suivant')}
          {/* The stepper keeps the focus: this says where it went (a radio says itself when chosen). */}
          <p className="visually-hidden" role="status">
            {stepped}
          </p>
        </div>
        <div className="donation__choices" id={`${id}-amounts`} role="radiogroup" aria-label="Montants proposés">
          {pills('amountIndex', AMOUNT_CHOICES, amountLabel)}
        </div>
        {/* In the server's HTML always, shown by CSS while « Autre montant » is checked: it works without JavaScript. */}
        {(own || !hydrated) && (
          <Field
            id={ownId}
            label={monthly ? 'Votre montant par mois, en euros' : 'Votre montant, en euros'}
            help="Entre 1 € et 100 000 €, par exemple 37 ou 37,50."
            error={ownError}
            variant="short"
          >
            {(control) => (
              <span className="donation__own">
                <input
                  {...control}
                  ref={ownField}
                  name={OWN_FIELD_NAME}
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  value={ownAmount}
                  onChange={(event) => {
                    setOwnError(undefined);
                    choose({ ownAmount: event.target.value });
                  }}
                />
                <span aria-hidden="true">€</span>
              </span>
            )}
          </Field>
        )}
        {/* Not live: the stepper's region says the amount, a radio says itself; the line is read in its turn. */}
        <p className="donation__tax">
          {euros === undefined
            ? 'Indiquez votre montant : nous vous disons ce qu’il vous coûte après réduction d’impôt.'
            : DONOR_KINDS[donorKind].taxLine(euros, monthly)}
        </p>
        <p className="donation__cap">{DONOR_KINDS[donorKind].cap}</p>
      </fieldset>

      {publishableKey === '' ? (
        <NoOnlinePaymentNote />
      ) : (
        <div className="donation__pay">
          {/* Without JavaScript both buttons submit the form to Stripe's page (this one in this tab); with it, a click */}
          {/* before hydration is held and replayed (data-replay, src/lib/hydrate-on-interaction.ts). */}
          <button
            type={hydrated ? 'button' : 'submit'}
            name="moyen"
            value="integre"
            data-replay
            className="button button--sun donation__submit"
            aria-busy={busy}
            data-banner-avoid
            onClick={(event) => {
              // A click replayed while React hydrates finds the server's submit button: never submitted with the script.
              event.preventDefault();
              void pay('integre');
            }}
          >
            {/* Without the amount in the server's HTML: a radio chosen before hydration would make it wrong. */}
            {euros === undefined || !hydrated
              ? monthly
                ? 'Donner chaque mois'
                : 'Faire un don'
              : monthly
                ? `Donner ${formatEuros(euros)} par mois`
                : `Faire un don de ${formatEuros(euros)}`}
          </button>
          {/* The banner never covers it: it is the way to pay when Stripe's form cannot show here. */}
          <button
            type={hydrated ? 'button' : 'submit'}
            name="moyen"
            value="lien"
            formTarget="_blank"
            data-replay
            id={hostedId}
            className="button button--ghost"
            aria-busy={busy}
            data-banner-avoid
            onClick={(event) => {
              event.preventDefault();
              void pay('lien');
            }}
          >
            {HOSTED_BUTTON} <span className="visually-hidden">(nouvel onglet)</span>
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
    </form>
  );
}
