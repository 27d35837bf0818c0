/**
 * The access log in words (/espace/journal, admins): an entry's `objet` (`inscripitions/<id>`, `dons/<logId> (reçu
 * 2026-00012, PDF)`, a refused path…) becomes « Préinscription de Léa M. », « Reçu n° 2026-00012 du don de 50 € du
 * 3 mars 2026 (PDF) », « Préinscriptions (/espace/preinscriptions) ». Names are read from the documents when the page
 * is shown, never stored in the log: a request deleted after its 12 months leaves no child's name behind. Only names,
 * amounts and dates: never what a family wrote about their child (health, disability) nor a staff note.
 */
import { Timestamp, type DocumentSnapshot, type Firestore } from 'firebase-admin/firestore';
import { withDeadline } from '../../lib/deadline';
import { frenchDay, isStatus, STATUS_LABELS } from '../admissions/admissions';
import type { AccessEntry } from './access-log.server';
import { ROLE_LABELS, isRole, SECTIONS, sectionOfPath } from './roles';

/** A child's first name and the initial of the last name (« Léa M. »), bounded: the list's words, no more. */
function shortName(first: unknown, last: unknown): string {
  const given = String(first ?? '')
    .trim()
    .slice(0, 40);
  const initial = [...String(last ?? '').trim()][0];
  return [given, initial && `${initial.toUpperCase()}.`].filter(Boolean).join(' ');
}

/** « 50 € », « 25,50 € » for an amount in cents. */
function euros(cents: number): string {
  const digits = cents % 100 === 0 ? 0 : 2;
  const format = { style: 'currency', currency: 'EUR', minimumFractionDigits: digits, maximumFractionDigits: digits };
  return new Intl.NumberFormat('fr-FR', format as Intl.NumberFormatOptions).format(cents / 100);
}

/** « don de 50 € du 3 mars 2026 » for a gift document (`montant` in cents, `date` its payment). */
function giftWords(document: DocumentSnapshot | undefined): string {
  if (!document?.exists) return 'don';
  const cents: unknown = document.get('montant');
  const date: unknown = document.get('datePaiement') ?? document.get('date');
  const amount = typeof cents === 'number' ? ` de ${euros(cents)}` : '';
  return `don${amount}${date instanceof Timestamp ? ` du ${frenchDay(date.toDate())}` : ''}`;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** What a document-shaped `objet` needs read: `collection/id` or a receipt number to find a gift by. */
type Lookup = { path: string } | { receipt: string } | undefined;

const RECEIPT = /^dons\/\S+ \(reçu (\S+), (PDF|email)\)$/;

function lookupOf(entry: AccessEntry): Lookup {
  if (entry.action === 'refus') return undefined;
  const receipt = RECEIPT.exec(entry.objet);
  if (receipt) return { receipt: receipt[1]! };
  const document = /^(inscripitions|newsletter|dons)\/([\w-]{1,200})$/.exec(entry.objet);
  return document ? { path: `${document[1]}/${document[2]}` } : undefined;
}

/** Each entry's `objet` said in words (same order); a shape it does not know stays as it is. Reads within 8 s. */
export async function describeEntries(db: Firestore, entries: readonly AccessEntry[]): Promise<string[]> {
  const lookups = entries.map(lookupOf);
  const paths = [...new Set(lookups.flatMap((lookup) => (lookup && 'path' in lookup ? [lookup.path] : [])))];
  const receipts = [...new Set(lookups.flatMap((lookup) => (lookup && 'receipt' in lookup ? [lookup.receipt] : [])))];
  const [documents, gifts] = await withDeadline(
    Promise.all([
      paths.length > 0 ? db.getAll(...paths.map((path) => db.doc(path))) : Promise.resolve([]),
      Promise.all(
        receipts.map((number) =>
          db
            .collection('dons')
            .where('recu', '==', number)
            .limit(1)
            .get()
            .then((snapshot) => [number, snapshot.docs[0]] as const),
        ),
      ),
    ]),
    8000,
  );
  const byPath = new Map(documents.map((document) => [document.ref.path, document]));
  const byReceipt = new Map(gifts);
  return entries.map((entry) => words(entry, byPath, byReceipt));
}

function words(
  entry: AccessEntry,
  byPath: Map<string, DocumentSnapshot>,
  byReceipt: Map<string, DocumentSnapshot | undefined>,
): string {
  const { objet } = entry;
  if (entry.action === 'refus') {
    const section = sectionOfPath(objet);
    return section ? `${SECTIONS[section].title} (${objet})` : objet;
  }
  const receipt = RECEIPT.exec(objet);
  if (receipt) {
    const [, number, how] = receipt;
    return `Reçu n° ${number} du ${giftWords(byReceipt.get(number!))} (${how === 'PDF' ? 'PDF' : 'envoyé par email'})`;
  }
  const document = /^(inscripitions|newsletter|dons)\/(\S+)$/.exec(objet);
  if (document) {
    const found = byPath.get(objet);
    if (document[1] === 'inscripitions') {
      const name = found?.exists ? shortName(found.get('enfantPrenom'), found.get('enfantNom')) : '';
      return found?.exists ? `Préinscription${name ? ` de ${name}` : ''}` : 'Préinscription supprimée depuis';
    }
    if (document[1] === 'newsletter') {
      const email: unknown = found?.get('email');
      return typeof email === 'string' && email ? `Abonnement de ${email}` : 'Abonnement retiré depuis';
    }
    return capital(giftWords(found));
  }
  return listWords(objet) ?? roleWords(objet) ?? objet;
}

/** The lists and exports: `inscripitions (liste)`, `dons 2026 (12 lignes, CSV)`, `recusAnnuels/<id> (reçu …, PDF)`. */
function listWords(objet: string): string | undefined {
  const list = /^(inscripitions|newsletter)(?: statut (\S+))? \((?:liste|(\d+) lignes, CSV)\)$/.exec(objet);
  if (list) {
    const [, collection, status, rows] = list;
    const what = collection === 'inscripitions' ? 'des préinscriptions' : 'des abonnés à la lettre';
    const scope = isStatus(status) ? ` « ${STATUS_LABELS[status]} »` : '';
    return rows ? `Export ${what}${scope} (${rows} lignes)` : `Liste ${what}${scope}`;
  }
  const year = /^dons (\d{4}) \((?:liste|(\d+) lignes, CSV)\)$/.exec(objet);
  if (year) return year[2] ? `Export des dons de ${year[1]} (${year[2]} lignes)` : `Dons de ${year[1]}`;
  const yearly = /^recusAnnuels\/\S+ \(reçu (\S+), PDF\)$/.exec(objet);
  if (yearly) return `Reçu annuel n° ${yearly[1]} (PDF)`;
  const issued = /^recusAnnuels (\d{4}) \((.+)\)$/.exec(objet);
  if (issued) return `Reçus annuels ${issued[1]} : ${issued[2]}`;
  if (/^outbox\/\S+$/.test(objet)) return 'Courriel en échec envoyé de nouveau';
  return undefined;
}

/** The roles page's entries: `<email> : + edition`, `<email> : − admin`, `<email> : accès retiré`, invitations. */
function roleWords(objet: string): string | undefined {
  const change = /^(.+) : ([+−]) (\S+)$/.exec(objet);
  if (change && isRole(change[3])) {
    return `Rôle « ${ROLE_LABELS[change[3]].name} » ${change[2] === '+' ? 'donné à' : 'retiré à'} ${change[1]}`;
  }
  const removed = /^(.+) : accès retiré$/.exec(objet);
  if (removed) return `Accès retiré à ${removed[1]}`;
  const invited = /^invitation (.+) : (\S+)$/.exec(objet);
  if (invited && isRole(invited[2])) return `Invitation de ${invited[1]} (${ROLE_LABELS[invited[2]].name})`;
  return undefined;
}
