/**
 * The yearly receipt of a monthly donor's gifts (its PDF attached), and the notice that it was corrected or
 * cancelled after a refund or a dispute lost. Amounts come as French text.
 */
import { Text } from '@react-email/components';
import { highlight, MailLayout, paragraph, type MailIdentity } from '../../mail/templates/MailLayout';

/** A receipt number on one line. */
const number = { whiteSpace: 'nowrap' } as const;

/** Where a person's receipt serves, and a company's (the reduction of article 238 bis is claimed with its return). */
const declaration = (company: boolean | undefined) =>
  company ? 'la déclaration fiscale de l’entreprise' : 'votre déclaration de revenus';

/**
 * The yearly receipt of a monthly donor: `year`, `amount` (« 300,00 € », the year's instalments less refunds),
 * `payments` (how many), `receiptNumber`, `costAfterReduction`; the PDF is attached. `company`: a company's monthly
 * gift, whose receipt gives 60 % (article 238 bis), not a person's 66 %.
 */
export function YearlyReceiptMail(props: {
  identity: MailIdentity;
  donorName: string;
  year: number;
  amount: string;
  payments: number;
  receiptNumber: string;
  costAfterReduction: string;
  company?: string;
}) {
  const { identity, donorName, year, amount, payments, receiptNumber, costAfterReduction, company } = props;
  return (
    <MailLayout
      identity={identity}
      preview={`Votre reçu fiscal n° ${receiptNumber} pour vos dons mensuels de ${year} est joint à ce message.`}
      title={`Votre reçu fiscal ${year}`}
      reason={
        'Vous recevez ce message parce que vous faites un don mensuel sur notre site. ' +
        `Gardez-le : le reçu joint servira pour ${declaration(Boolean(company))}.`
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
      {company ? (
        <Text style={paragraph}>
          Établi au nom de {company}, il ouvre droit pour l’entreprise à une réduction d’impôt de 60 % de ces dons
          (article 238 bis du code général des impôts)&nbsp;: après réduction, ils lui ont coûté {costAfterReduction}.
          Une question&nbsp;? Répondez simplement à ce message.
        </Text>
      ) : (
        <Text style={paragraph}>
          Il vous permet de déduire 66 % de ce montant de votre impôt sur le revenu&nbsp;: après réduction, vos dons
          vous ont coûté {costAfterReduction}. Une question&nbsp;? Répondez simplement à ce message.
        </Text>
      )}
    </MailLayout>
  );
}

/**
 * A monthly donor's yearly receipt of `year` changed after it was issued: `cancelled` its number; `reason`
 * 'remboursement' (an instalment refunded), 'litige' (a dispute lost) or 'versement' (an instalment recorded since);
 * `corrected`, the corrected receipt's number (attached) with the new total `amount` (« 250,00 € ») of `payments`
 * instalments; without it, the receipt is cancelled and nothing replaces it. `company`: a company's receipt.
 */
export function YearlyReceiptChange(props: {
  identity: MailIdentity;
  donorName: string;
  year: number;
  cancelled: string;
  reason: 'remboursement' | 'litige' | 'versement';
  corrected?: { number: string; amount: string; payments: number };
  company?: boolean;
}) {
  const { identity, donorName, year, cancelled, reason, corrected, company } = props;
  const why = corrected
    ? {
        remboursement: `Une partie de vos dons mensuels de ${year} vous a été remboursée.`,
        litige:
          `Un versement de vos dons mensuels de ${year} a été contesté auprès de votre banque, ` +
          'qui vous l’a rendu.',
        versement: `Un versement de vos dons mensuels de ${year} a été enregistré après l’envoi de votre reçu.`,
      }[reason]
    : reason === 'litige'
      ? `Le paiement de vos dons mensuels de ${year} a été contesté auprès de votre banque, qui vous l’a rendu.`
      : `Vos dons mensuels de ${year} vous ont été remboursés.`;
  return (
    <MailLayout
      identity={identity}
      preview={
        corrected
          ? `Votre reçu fiscal rectificatif n° ${corrected.number} pour vos dons mensuels de ${year} est joint à ce ` +
            'message.'
          : `Votre reçu fiscal n° ${cancelled} pour vos dons mensuels de ${year} est annulé.`
      }
      title={corrected ? `Votre reçu fiscal ${year} rectificatif` : `Votre reçu fiscal ${year} est annulé`}
      reason="Vous recevez ce message parce que vous avez fait un don mensuel sur notre site."
    >
      <Text style={paragraph}>Bonjour{donorName ? ` ${donorName}` : ''},</Text>
      <Text style={paragraph}>
        {why}
        {corrected &&
          ` Vos dons de ${year} s’élèvent désormais à ${corrected.amount} (${corrected.payments} ${
            corrected.payments > 1 ? 'versements' : 'versement'
          }).`}
      </Text>
      {corrected ? (
        <>
          <Text style={highlight}>
            Votre reçu fiscal n° <strong style={number}>{cancelled}</strong> est annulé. Il est remplacé par le reçu
            fiscal rectificatif n° <strong style={number}>{corrected.number}</strong>, joint à ce message (fichier PDF).
          </Text>
          <Text style={paragraph}>Pour {declaration(company)}, utilisez ce nouveau reçu et non l’ancien.</Text>
        </>
      ) : (
        <Text style={highlight}>
          Votre reçu fiscal n° <strong style={number}>{cancelled}</strong> pour l’année {year} est annulé : il ne peut
          plus servir pour {declaration(company)}.
        </Text>
      )}
      <Text style={paragraph}>Une question&nbsp;? Répondez simplement à ce message.</Text>
    </MailLayout>
  );
}
