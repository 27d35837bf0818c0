/**
 * The donors' mails, once Stripe says a gift is paid: the thank-you of a one-off gift (its receipt attached) and the
 * confirmation of a monthly gift (how to stop it). Amounts and dates come as French text.
 */
import { Link, Text } from '@react-email/components';
import { highlight, link, MailLayout, paragraph, type MailIdentity } from './MailLayout';

/**
 * `donorName` ('' none), `amount` (« 50,00 € »), `paidOn` (« 12 mars 2026 »), `receiptNumber`, `costAfterReduction`;
 * `specimen`: a payment with Stripe's test keys, answered by TestPaymentNotice instead.
 */
export function DonationThanks(props: {
  identity: MailIdentity;
  donorName: string;
  amount: string;
  paidOn: string;
  receiptNumber: string;
  costAfterReduction: string;
  specimen?: boolean;
  /** The number of the receipt this one replaces (cancelled after a partial refund), when it is a corrected one. */
  replaces?: string;
}) {
  const { identity, donorName, amount, paidOn, receiptNumber, costAfterReduction, replaces } = props;
  if (props.specimen) return <TestPaymentNotice {...props} />;
  return (
    <MailLayout
      identity={identity}
      preview={`Votre reçu fiscal n° ${receiptNumber} est joint à ce message.`}
      title="Merci pour votre don !"
      reason={
        'Vous recevez ce message parce que vous avez fait un don sur notre site. ' +
        'Gardez-le : le reçu joint vous servira pour votre déclaration de revenus.'
      }
    >
      <Text style={paragraph}>Bonjour{donorName ? ` ${donorName}` : ''},</Text>
      <Text style={paragraph}>
        Nous avons bien reçu votre don de {amount} du {paidOn}. Merci&nbsp;: il aide directement les enfants de l’école.
      </Text>
      <Text style={highlight}>
        Votre reçu fiscal n° <strong>{receiptNumber}</strong> est joint à ce message (fichier PDF).
        {replaces ? ` Il remplace le reçu n° ${replaces}, annulé après un remboursement partiel.` : ''}
      </Text>
      <Text style={paragraph}>
        Il vous permet de déduire 66 % de votre don de votre impôt sur le revenu&nbsp;: après réduction, votre don vous
        coûte {costAfterReduction}.
      </Text>
      <Text style={paragraph}>
        Vous pouvez aussi le télécharger à nouveau depuis la page de remerciement. Une question&nbsp;? Répondez
        simplement à ce message.
      </Text>
    </MailLayout>
  );
}

/** A payment made with Stripe's test keys: it says so, and that the attached specimen has no tax value. */
function TestPaymentNotice(props: {
  identity: MailIdentity;
  donorName: string;
  amount: string;
  receiptNumber: string;
}) {
  const { identity, donorName, amount, receiptNumber } = props;
  return (
    <MailLayout
      identity={identity}
      preview="Paiement de test : aucun argent n’a été versé, le document joint n’a pas de valeur fiscale."
      title="Paiement de test"
      reason="Vous recevez ce message parce qu’un paiement de test a été fait sur notre site avec votre adresse."
    >
      <Text style={paragraph}>Bonjour{donorName ? ` ${donorName}` : ''},</Text>
      <Text style={highlight}>
        Ce paiement de {amount} est un <strong>paiement de test</strong>&nbsp;: il a été fait en mode test de Stripe,
        aucune somme n’a été versée.
      </Text>
      <Text style={paragraph}>
        Le document joint (n° {receiptNumber}) est un <strong>spécimen sans valeur fiscale</strong>&nbsp;: il ne donne
        droit à aucune réduction d’impôt. Une question&nbsp;? Répondez simplement à ce message.
      </Text>
    </MailLayout>
  );
}

/** `donorName` ('' none), `amount` per month (« 25 € »), `contact` (where to write to stop it, '' none). */
export function MonthlyDonationConfirmation(props: {
  identity: MailIdentity;
  donorName: string;
  amount: string;
  contact: string;
}) {
  const { identity, donorName, amount, contact } = props;
  return (
    <MailLayout
      identity={identity}
      preview="Il est prélevé chaque mois ; vous pouvez l’arrêter à tout moment."
      title="Merci pour votre don mensuel !"
      reason="Vous recevez ce message parce que vous avez mis en place un don mensuel sur notre site."
    >
      <Text style={paragraph}>Bonjour{donorName ? ` ${donorName}` : ''},</Text>
      <Text style={paragraph}>
        Votre don mensuel de {amount} est en place&nbsp;: il est prélevé chaque mois sur votre carte, du même montant.
        Merci pour ce soutien régulier, si précieux pour l’école.
      </Text>
      <Text style={paragraph}>
        Pour vos dons mensuels, vous recevez un seul reçu fiscal par an, au début de l’année suivante, pour le total de
        l’année.
      </Text>
      <Text style={highlight}>
        Pour arrêter votre don mensuel, à tout moment et sans justification, répondez à ce message
        {contact ? (
          <>
            {' '}
            ou écrivez à{' '}
            <Link href={`mailto:${contact}`} style={link}>
              {contact}
            </Link>
          </>
        ) : null}{' '}
        : nous l’arrêtons dans les deux jours ouvrés et vous le confirmons.
      </Text>
    </MailLayout>
  );
}

/**
 * The yearly receipt of a monthly donor: `year`, `amount` (« 300,00 € », the year's instalments less refunds),
 * `payments` (how many), `receiptNumber`, `costAfterReduction`; the PDF is attached.
 */
export function YearlyReceiptMail(props: {
  identity: MailIdentity;
  donorName: string;
  year: number;
  amount: string;
  payments: number;
  receiptNumber: string;
  costAfterReduction: string;
}) {
  const { identity, donorName, year, amount, payments, receiptNumber, costAfterReduction } = props;
  return (
    <MailLayout
      identity={identity}
      preview={`Votre reçu fiscal n° ${receiptNumber} pour vos dons mensuels de ${year} est joint à ce message.`}
      title={`Votre reçu fiscal ${year}`}
      reason={
        'Vous recevez ce message parce que vous faites un don mensuel sur notre site. ' +
        'Gardez-le : le reçu joint vous servira pour votre déclaration de revenus.'
      }
    >
      <Text style={paragraph}>Bonjour{donorName ? ` ${donorName}` : ''},</Text>
      <Text style={paragraph}>
        Merci pour votre soutien tout au long de l’année {year}&nbsp;: vos dons mensuels ({payments}{' '}
        {payments > 1 ? 'versements' : 'versement'}) s’élèvent à {amount}.
      </Text>
      <Text style={highlight}>
        Votre reçu fiscal n° <strong>{receiptNumber}</strong> pour l’année {year} est joint à ce message (fichier PDF).
      </Text>
      <Text style={paragraph}>
        Il vous permet de déduire 66 % de ce montant de votre impôt sur le revenu&nbsp;: après réduction, vos dons vous
        ont coûté {costAfterReduction}. Une question&nbsp;? Répondez simplement à ce message.
      </Text>
    </MailLayout>
  );
}
