/** The donation picker's fixed notes: the test card to use on test keys, and what to do when payment is not set up. */

/** Shown when the site runs on Stripe's test keys (`pk_test_…`): no real payment, and the test card to type. */
export function TestModeNote() {
  return (
    <p className="donation__note" role="note">
      <strong>Version de test :</strong> aucun paiement réel n’est effectué. Pour essayer, utilisez la carte{' '}
      <span className="donation__card">4242 4242 4242 4242</span>, une date d’expiration future et n’importe quel code à
      3 chiffres.
    </p>
  );
}

/** Shown instead of the payment buttons when the site has no Stripe key: the cheque, and its receipt. */
export function NoOnlinePaymentNote() {
  return (
    <p className="donation__note">
      Le paiement en ligne n’est pas configuré sur ce site. Vous pouvez nous adresser votre don par chèque, à l’adresse
      indiquée plus bas : nous vous enverrons votre reçu fiscal.
    </p>
  );
}
