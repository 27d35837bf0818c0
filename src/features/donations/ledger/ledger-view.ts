/**
 * The treasurer's view of the ledger (`dons`, docs/donations.md) without Firestore: one row per gift, the French
 * labels, the year's totals for the yearly declaration of receipts issued (CGI art. 222 bis) and the CSV for the
 * accounts.
 */
import { toCsv } from '../../../lib/csv';

/** What a gift is, as the space says it: a card gift, a monthly gift's start or instalment, a cheque, a transfer. */
export type GiftKind = 'don' | 'abonnement' | 'mensualité' | 'chèque' | 'virement';

/** The French label of a ledger `statut` (Stripe's own value for one the site does not know). */
export function giftStatusLabel(status: string): string {
  const labels: Record<string, string> = {
    paid: 'payé',
    unpaid: 'en attente',
    failed: 'échoué',
    no_payment_required: 'sans paiement',
  };
  return labels[status] ?? status;
}

/** One gift as the space shows and exports it. `montant` in euro cents (null: Stripe sent none). */
export interface LedgerRow {
  id: string;
  /** When the money was paid (`datePaiement`). */
  date: Date;
  prenom: string;
  nom: string;
  /** A company's gift: its business name ('' for a person's). */
  entreprise: string;
  email: string;
  montant: number | null;
  kind: GiftKind;
  /** 'Carte bancaire', 'Chèque', 'Virement', 'Prélèvement SEPA' or 'Paiement en ligne'. */
  moyen: string;
  statut: string;
  /** The receipt number, '' for none. */
  recu: string;
  /** A paid live gift whose number is being taken (`aNumeroter`: the next sweep numbers and mails it). */
  numberPending: boolean;
  /** false for a gift paid with Stripe's test keys: shown apart, never in the totals. */
  livemode: boolean;
  /** Cents refunded in total (0 for none). */
  rembourse: number;
  /** A card dispute: 'ouvert', 'gagne', 'perdu'; '' for none. */
  litige: string;
  /** The gift's cancelled receipt numbers, oldest first (void, never reused). */
  recusAnnules: string[];
  /** A monthly gift's start: Stripe's subscription status ('' when none recorded yet); '' for any other gift. */
  abonnementStatut: string;
  /** A monthly gift's start: the monthly amount in cents (as changed since, else the first); null otherwise. */
  monthlyCents: number | null;
}

/** The French label of a subscription's status (Stripe's `status`), as the register shows a monthly gift's start. */
const SUBSCRIPTION_LABELS: Record<string, string> = {
  active: 'en cours',
  trialing: 'en cours',
  past_due: 'paiement en retard',
  unpaid: 'impayé',
  paused: 'suspendu',
  incomplete: 'en attente du premier paiement',
  incomplete_expired: 'jamais commencé',
  canceled: 'arrêté',
};

/**
 * How the register shows a row: the donor (a company's name first, then the person), the amount (a monthly gift's
 * start as « 25,00 €/mois »), the nature (« Don mensuel mis en place » for a start: not money in itself, never in the
 * totals, whose months are the `mensualité` rows) and the status (a start's subscription status).
 */
export function rowDisplay(row: LedgerRow): { donor: string; amount: string; nature: string; status: string } {
  const person = `${row.prenom} ${row.nom}`.trim();
  const donor = [row.entreprise, person].filter(Boolean).join(' — ') || 'Sans nom';
  const euros = (cents: number | null) => (cents === null ? '—' : `${eurosCell(cents)} €`);
  if (row.kind !== 'abonnement') {
    return { donor, amount: euros(row.montant), nature: row.kind, status: giftStatusLabel(row.statut) };
  }
  const status =
    row.statut === 'paid' || row.statut === 'no_payment_required'
      ? (SUBSCRIPTION_LABELS[row.abonnementStatut] ?? (row.abonnementStatut || 'en cours'))
      : giftStatusLabel(row.statut);
  return {
    donor,
    amount: row.monthlyCents === null ? '—' : `${eurosCell(row.monthlyCents)} €/mois`,
    nature: 'Don mensuel mis en place',
    status,
  };
}

const DISPUTE_LABELS: Record<string, string> = {
  ouvert: 'litige en cours',
  gagne: 'litige gagné',
  perdu: 'litige perdu',
};

/** The French label of a dispute's state (`litige`): '' for none. */
export function disputeLabel(litige: string): string {
  return DISPUTE_LABELS[litige] ?? '';
}

/**
 * The money a row leaves the association, in cents: what was paid minus what was refunded, nothing after a dispute
 * lost (the bank took the money back).
 */
export function keptCents(row: Pick<LedgerRow, 'montant' | 'rembourse' | 'litige'>): number {
  return row.litige === 'perdu' ? 0 : Math.max(0, (row.montant ?? 0) - row.rembourse);
}

/** The kind of a ledger document from its `nature` and `moyen`. */
export function giftKind(nature: string, moyen: string | undefined): GiftKind {
  if (moyen === 'cheque') return 'chèque';
  if (moyen === 'virement') return 'virement';
  if (nature === 'mensualite') return 'mensualité';
  return nature === 'abonnement' ? 'abonnement' : 'don';
}

/** The payment method's short label. */
export function methodLabel(moyen: string | undefined): string {
  const labels: Record<string, string> = {
    cheque: 'Chèque',
    virement: 'Virement',
    prelevement: 'Prélèvement SEPA',
    'en-ligne': 'Paiement en ligne',
  };
  return labels[moyen ?? ''] ?? 'Carte bancaire';
}

/** Cents as euros with a French decimal comma and no grouping: 2500 → "25,00" (what a spreadsheet reads). */
export function eurosCell(cents: number | null): string {
  return cents === null ? '' : (cents / 100).toFixed(2).replace('.', ',');
}

/** Newest payment first. */
export function newestGiftFirst(a: LedgerRow, b: LedgerRow): number {
  return b.date.getTime() - a.date.getTime();
}

/**
 * The year's totals of live gifts (`livemode`): `receipts`, the number of valid receipts (a cancelled one is not
 * counted; a corrected one is, for the amount it certifies), and `receiptsCents`, their amount in cents (the yearly
 * declaration); `receivedCents`, the money received and kept (paid gifts and instalments, minus refunds and disputes
 * lost); `refundedCents`, what went back (refunds, disputes lost); `cancelledReceipts`, the numbers cancelled.
 */
export function yearTotals(rows: readonly LedgerRow[]): {
  receipts: number;
  receiptsCents: number;
  receivedCents: number;
  refundedCents: number;
  cancelledReceipts: number;
} {
  const live = rows.filter((row) => row.livemode);
  const receipted = live.filter((row) => row.recu);
  const received = live.filter((row) => row.statut === 'paid' && row.kind !== 'abonnement');
  const sum = (list: LedgerRow[], cents: (row: LedgerRow) => number) =>
    list.reduce((total, row) => total + cents(row), 0);
  return {
    receipts: receipted.length,
    receiptsCents: sum(receipted, keptCents),
    receivedCents: sum(received, keptCents),
    refundedCents: sum(received, (row) => (row.montant ?? 0) - keptCents(row)),
    cancelledReceipts: sum(live, (row) => row.recusAnnules.length),
  };
}

/** The export's columns, in the accounts' order. */
export const LEDGER_CSV_HEADER = [
  'date',
  'nom',
  'prénom',
  'email',
  'montant en euros',
  'nature',
  'moyen',
  'statut',
  'reçu',
  'remboursé en euros',
  'litige',
  'reçus annulés',
] as const;

/** `rows` as CSV for a French spreadsheet (csv.ts: BOM, `;`, formulas neutralised); dates `jj/mm/aaaa` in Paris. */
export function ledgerCsv(rows: readonly LedgerRow[]): string {
  const day = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'short', timeZone: 'Europe/Paris' });
  return toCsv(
    LEDGER_CSV_HEADER,
    rows.map((row) => [
      day.format(row.date),
      row.nom,
      row.prenom,
      row.email,
      eurosCell(row.montant),
      row.kind,
      row.moyen,
      giftStatusLabel(row.statut),
      row.recu,
      row.rembourse ? eurosCell(row.rembourse) : '',
      disputeLabel(row.litige),
      row.recusAnnules.join(' '),
    ]),
  );
}

/** The year `?annee=` asks for (2000 to next year), else `thisYear`: the ledger's and the export's year. */
export function requestedYear(url: URL, thisYear: number): number {
  const asked = Number(url.searchParams.get('annee'));
  return Number.isInteger(asked) && asked >= 2000 && asked <= thisYear + 1 ? asked : thisYear;
}
