/**
 * The donors' mails, once Stripe says a gift is paid: the thank-you of a one-off gift (its receipt attached) and the
 * confirmation of a monthly gift (how to change or stop it). Amounts and dates come as French text.
 */
import { Link, Text } from '@react-email/components';
import { highlight, link, MailLayout, paragraph, type MailIdentity } from '../../mail/templates/MailLayout';

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
  /** A company's gift: the company's name; its reduction is 60 % (article 238 bis). */
  company?: string;
}) {
  const { identity, donorName, amount, paidOn, receiptNumber, costAfterReduction, company } = props;
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
      </Text>
      {company ? (
        <Text style={paragraph}>
          Établi au nom de {company}, il ouvre droit pour l’entreprise à une réduction d’impôt de 60 % du don (article
          238 bis du code général des impôts)&nbsp;: après réduction, ce don lui coûte {costAfterReduction}.
        </Text>
      ) : (
        <Text style={paragraph}>
          Il vous permet de déduire 66 % de votre don de votre impôt sur le revenu&nbsp;: après réduction, votre don
          vous coûte {costAfterReduction}.
        </Text>
      )}
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

/**
 * `donorName` ('' none), `amount` per month (« 25 € »), `contact` (where to write, '' none); managing the gift is done
 * in Stripe's customer portal through /soutenir/gerer.
 */
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
        Pour changer le montant, mettre à jour votre carte ou arrêter votre don mensuel, à tout moment et sans
        justification, demandez votre lien de gestion sur la page{' '}
        <Link href={`${identity.siteUrl}/soutenir/gerer`} style={link}>
          «&nbsp;Gérer mon don mensuel&nbsp;» de notre site
        </Link>
        {contact ? (
          <>
            {' '}
            ou écrivez à{' '}
            <Link href={`mailto:${contact}`} style={link}>
              {contact}
            </Link>
          </>
        ) : null}
        .
      </Text>
    </MailLayout>
  );
}

/** A receipt number on one line. */
const number = { whiteSpace: 'nowrap' } as const;

/**
 * A receipt cancelled after the gift: `cancelled` its number; `reason` 'remboursement' (refunded) or 'litige' (a
 * dispute lost); `corrected`, the corrected receipt's number for a partial refund (attached), with `amount` (« 30,00 €
 * ») it certifies and `refunded` (« 20,00 € »). `specimen`: a test payment's specimen, no tax claim either way.
 */
export function ReceiptChange(props: {
  identity: MailIdentity;
  donorName: string;
  cancelled: string;
  reason: 'remboursement' | 'litige';
  refunded: string;
  corrected?: string;
  amount?: string;
  specimen?: boolean;
}) {
  const { identity, donorName, cancelled, reason, refunded, corrected, amount, specimen } = props;
  const document = specimen ? 'spécimen' : 'reçu fiscal';
  const why =
    reason === 'litige'
      ? 'Le paiement de votre don a été contesté auprès de votre banque, qui vous l’a rendu.'
      : corrected
        ? `Une partie de votre don, ${refunded}, vous a été remboursée.`
        : 'Votre don vous a été remboursé.';
  return (
    <MailLayout
      identity={identity}
      preview={
        corrected
          ? `Votre ${document} rectificatif n° ${corrected} est joint à ce message.`
          : `Votre ${document} n° ${cancelled} est annulé.`
      }
      title={corrected ? `Votre ${document} rectificatif` : `Votre ${document} est annulé`}
      reason="Vous recevez ce message parce que vous avez fait un don sur notre site."
    >
      <Text style={paragraph}>Bonjour{donorName ? ` ${donorName}` : ''},</Text>
      <Text style={paragraph}>{why}</Text>
      {corrected ? (
        <>
          <Text style={highlight}>
            Votre {document} n° <strong style={number}>{cancelled}</strong> est annulé. Il est remplacé par le{' '}
            {document} rectificatif n° <strong style={number}>{corrected}</strong>, de {amount}, joint à ce message
            (fichier PDF).
          </Text>
          <Text style={paragraph}>
            {specimen
              ? 'Ce document reste un spécimen sans valeur fiscale.'
              : 'Pour votre déclaration de revenus, utilisez ce nouveau reçu et non l’ancien.'}
          </Text>
        </>
      ) : (
        <Text style={highlight}>
          Votre {document} n° <strong style={number}>{cancelled}</strong> est annulé
          {specimen ? '.' : ' : il ne peut plus servir pour votre déclaration de revenus.'}
        </Text>
      )}
      <Text style={paragraph}>Une question&nbsp;? Répondez simplement à ce message.</Text>
    </MailLayout>
  );
}
