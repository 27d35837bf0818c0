/**
 * The newsletter's letters (`lettres`, docs/mail.md « Letters »), for whoever holds section `lettre`: written and saved
 * (the articles' sanitiser), tested on the sender's own address, then sent to the confirmed subscribers through the
 * outbox in batches. Never twice to one person: each subscriber reached gets a document in the letter's
 * `destinataires`, created in the same batch as their mail (whose outbox id is the pair letter, subscriber), so a
 * second « Envoyer », a batch retried or two sends at once queue nothing more, even once the outbox has forgotten the
 * mail (30 days). Every call checks the role and bounds Firestore (server-calls.server.ts); sends are logged.
 */
import { FieldValue, Timestamp, type DocumentReference, type Firestore } from 'firebase-admin/firestore';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { holdsScript, refusedLinks, sanitizeEditorHtml } from '../../lib/html.server';
import { HttpError } from '../../lib/http';
import type { FieldIssue } from '../content/editing/messages';
import { recordAccess } from '../espace/access-log.server';
import type { StaffSession } from '../espace/auth.server';
import { assertSection, bounded } from '../espace/server-calls.server';
import { headerText, type OutgoingMail } from '../mail/mail';
import type { MailIdentity } from '../mail/mails.server';
import { enqueueMails, OUTBOX } from '../mail/outbox.server';
import { letterMails, letterTestMail } from './letter-mails.server';
import {
  BODY_MAX,
  DESTINATAIRES,
  LETTER_ID_PATTERN,
  LETTER_MESSAGES,
  LETTRES,
  letterMailId,
  readLetter,
  SEND_BATCH,
  SUBJECT_MAX,
  type Letter,
} from './letters';

/** A letter's two fields as typed. */
export interface LetterFields {
  objet: string;
  contenu: string;
}

/** A letter refused as posted: the French refusals by field (`objet`, `contenu`) and what was typed, to show again. */
export class LetterRefused extends HttpError {
  override name = 'LetterRefused';
  constructor(
    readonly issues: FieldIssue[],
    readonly fields: LetterFields,
  ) {
    super(400, issues[0]?.message ?? LETTER_MESSAGES.notFound);
  }
}

/** The fields as they would be stored: the subject on one line, the body through the articles' sanitiser. */
function checkedFields(posted: LetterFields): LetterFields {
  const issues: FieldIssue[] = [];
  const objet = headerText(posted.objet, SUBJECT_MAX + 1);
  if (!objet) issues.push({ field: 'objet', message: LETTER_MESSAGES.subjectEmpty });
  else if ([...objet].length > SUBJECT_MAX) issues.push({ field: 'objet', message: LETTER_MESSAGES.subjectTooLong });
  let contenu = posted.contenu;
  const refused = refusedLinks(contenu)[0];
  if (contenu.length > BODY_MAX) issues.push({ field: 'contenu', message: LETTER_MESSAGES.bodyTooLong });
  else if (holdsScript(contenu)) issues.push({ field: 'contenu', message: LETTER_MESSAGES.script });
  else if (refused !== undefined) issues.push({ field: 'contenu', message: LETTER_MESSAGES.badLink(refused) });
  else {
    contenu = sanitizeEditorHtml(contenu);
    if (!contenu) issues.push({ field: 'contenu', message: LETTER_MESSAGES.bodyEmpty });
  }
  if (issues.length > 0) throw new LetterRefused(issues, posted);
  return { objet, contenu };
}

const letters = (db: Firestore) => db.collection(LETTRES);

/** Every letter, the newest first (no personal data: not logged). @throws HttpError 403, 503. */
export async function listLetters(session: StaffSession | undefined): Promise<Letter[]> {
  assertSection(session, 'lettre');
  const snapshot = await bounded('letters', letters(adminFirestore()).get());
  return snapshot.docs
    .map((document) => readLetter(document.id, document.data()))
    .toSorted((a, b) => (b.creeLe?.getTime() ?? 0) - (a.creeLe?.getTime() ?? 0));
}

/** The letter `id`. @throws HttpError 403, 404 LETTER_MESSAGES.notFound, 503. */
export async function loadLetter(session: StaffSession | undefined, id: string): Promise<Letter> {
  assertSection(session, 'lettre');
  if (!LETTER_ID_PATTERN.test(id)) throw new HttpError(404, LETTER_MESSAGES.notFound);
  const snapshot = await bounded('letter', letters(adminFirestore()).doc(id).get());
  if (!snapshot.exists) throw new HttpError(404, LETTER_MESSAGES.notFound);
  return readLetter(id, snapshot.data());
}

/**
 * Saves the letter `id` (`nouvelle`: a new one) from its posted fields; returns its id. A letter already sent is
 * never changed. Logged (creation, modification). @throws LetterRefused (400); HttpError 403, 404, 409, 503.
 */
export async function saveLetter(session: StaffSession | undefined, id: string, posted: LetterFields): Promise<string> {
  assertSection(session, 'lettre');
  const fields = checkedFields(posted);
  const db = adminFirestore();
  const now = Timestamp.now();
  if (id === 'nouvelle') {
    const reference = letters(db).doc();
    const created = { ...fields, statut: 'brouillon', creeLe: now, modifieLe: now, creePar: session.email };
    await bounded('create', reference.create({ ...created, destinataires: 0, envoyes: 0, echecs: 0, enAttente: 0 }));
    await bounded('log', recordAccess(db, session, 'creation', `${LETTRES}/${reference.id}`));
    return reference.id;
  }
  if (!LETTER_ID_PATTERN.test(id)) throw new HttpError(404, LETTER_MESSAGES.notFound);
  const reference = letters(db).doc(id);
  await bounded(
    'save',
    db.runTransaction(async (transaction) => {
      const current = await transaction.get(reference);
      if (!current.exists) throw new HttpError(404, LETTER_MESSAGES.notFound);
      if (current.get('statut') === 'envoyee') throw new HttpError(409, LETTER_MESSAGES.alreadySent);
      transaction.update(reference, { ...fields, modifieLe: now });
    }),
  );
  await bounded('log', recordAccess(db, session, 'modification', `${LETTRES}/${id}`));
  return id;
}

/**
 * Queues the letter's test to the signed-in person's own address (at most one a minute: the outbox id holds the
 * minute) and returns its outbox id. @throws HttpError 403, 404, 429 LETTER_MESSAGES.testTooSoon, 503.
 */
export async function queueLetterTest(
  session: StaffSession | undefined,
  id: string,
  { identity, now }: { identity: MailIdentity; now: number },
): Promise<string> {
  const letter = await loadLetter(session, id);
  assertSection(session, 'lettre');
  const mail = await letterTestMail({ identity, letterId: id, ...letter, email: session.email, minute: minuteOf(now) });
  const db = adminFirestore();
  const batch = db.batch();
  enqueueMails(db, batch, [mail]);
  await bounded('test', batch.commit()).catch((error: unknown) => {
    throw alreadyExists(error) ? new HttpError(429, LETTER_MESSAGES.testTooSoon) : error;
  });
  await bounded('log', recordAccess(db, session, 'envoi', `${LETTRES}/${id} (test)`));
  return mail.id;
}

const minuteOf = (ms: number) => Math.floor(ms / 60_000);

/** True for Firestore's ALREADY_EXISTS (a `create` of an id taken), as gRPC code 6 or the emulator's words. */
function alreadyExists(error: unknown): boolean {
  let cause = error;
  for (let depth = 0; cause && depth < 4; depth += 1) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (code === 6 || code === 'already-exists' || /ALREADY_EXISTS|already exists/i.test(String(message ?? ''))) {
      return true;
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

/** A confirmed subscriber as a letter needs them: the subscription's id, the address, its unsubscribe token. */
interface Recipient {
  id: string;
  email: string;
  token: string;
}

/** Every confirmed subscription with an address and a token (the letter's audience). */
async function confirmedRecipients(db: Firestore): Promise<Recipient[]> {
  const query = db.collection('newsletter').where('statut', '==', 'confirmed').select('email', 'desinscriptionJeton');
  const snapshot = await bounded('subscribers', query.get());
  return snapshot.docs.flatMap((document) => {
    const email = String(document.get('email') ?? '').trim();
    const token = document.get('desinscriptionJeton');
    return email && typeof token === 'string' ? [{ id: document.id, email, token }] : [];
  });
}

/** How many confirmed subscribers a letter would go to now (no personal data read out). @throws 403, 503. */
export async function audienceSize(session: StaffSession | undefined): Promise<number> {
  assertSection(session, 'lettre');
  return (await confirmedRecipients(adminFirestore())).length;
}

/** What one « Envoyer » did: the outbox ids it queued, whether everyone is reached, how many subscribers in all. */
export interface SendReport {
  queued: string[];
  finished: boolean;
  audience: number;
}

/**
 * Sends the letter `id` to every confirmed subscriber it has not reached yet, by batches of SEND_BATCH: each batch
 * reads which of its subscribers the letter already has in `destinataires`, then creates, in one commit, the others'
 * mails (outbox) and their `destinataires` documents, and counts them on the letter (which becomes `envoyee`). A
 * commit refused because a mail exists (another send at the same moment) is read again and retried. Stops starting
 * batches after `deadlineMs` (a request's time is bounded): `finished` is then false and another « Envoyer » goes on.
 * Logged as an « envoi » with the number queued. @throws HttpError 403, 404, 503.
 */
export async function sendLetter(
  session: StaffSession | undefined,
  id: string,
  { identity, deadlineMs }: { identity: MailIdentity; deadlineMs: number },
): Promise<SendReport> {
  const started = Date.now();
  const letter = await loadLetter(session, id);
  assertSection(session, 'lettre');
  const db = adminFirestore();
  const reference = letters(db).doc(id);
  const addressed = await letterMails({ identity, letterId: id, objet: letter.objet, contenu: letter.contenu });
  const audience = await confirmedRecipients(db);
  const queued: string[] = [];
  let finished = true;
  for (let start = 0; start < audience.length; start += SEND_BATCH) {
    if (Date.now() - started > deadlineMs) {
      finished = false;
      break;
    }
    const chunk = audience.slice(start, start + SEND_BATCH);
    const first = !letter.envoyeeLe && queued.length === 0;
    queued.push(...(await bounded('send', queueBatch(db, reference, first, chunk, addressed))));
  }
  if (queued.length > 0) {
    await bounded('log', recordAccess(db, session, 'envoi', `${LETTRES}/${id} (${queued.length} destinataires)`));
  }
  return { queued, finished, audience: audience.length };
}

/**
 * Queues the mails of `chunk`'s subscribers the letter has not reached, with their `destinataires` documents, in
 * one batch (`first`: the letter's first, which dates its sending); returns their outbox ids. Another send
 * committing the same mails first makes this commit fail whole (`create`): the chunk is then read again (three tries).
 */
async function queueBatch(
  db: Firestore,
  reference: DocumentReference,
  first: boolean,
  chunk: Recipient[],
  addressed: (recipient: Recipient) => OutgoingMail,
): Promise<string[]> {
  for (let attempt = 1; ; attempt += 1) {
    const marks = chunk.map((recipient) => reference.collection(DESTINATAIRES).doc(recipient.id));
    const known = await db.getAll(...marks, { fieldMask: [] });
    const fresh = chunk.filter((_, index) => !known[index]!.exists);
    if (fresh.length === 0) return [];
    const batch = db.batch();
    const now = Timestamp.now();
    const ids = enqueueMails(db, batch, fresh.map(addressed));
    for (const recipient of fresh) {
      batch.create(reference.collection(DESTINATAIRES).doc(recipient.id), { misEnFileLe: now });
    }
    batch.update(reference, {
      statut: 'envoyee',
      destinataires: FieldValue.increment(fresh.length),
      ...(first && { envoyeeLe: now }),
    });
    try {
      await batch.commit();
      return ids;
    } catch (error) {
      if (!alreadyExists(error) || attempt >= 3) throw error;
    }
  }
}

/**
 * The letter `letter` with its counts read again from the outbox (sent, failed, still waiting) and stored on it, as
 * long as the outbox holds its mails (30 days: then the counts stored last stay). @throws HttpError 403, 503.
 */
export async function refreshCounts(session: StaffSession | undefined, letter: Letter): Promise<Letter> {
  assertSection(session, 'lettre');
  if (letter.destinataires === 0) return letter;
  const db = adminFirestore();
  const reference = letters(db).doc(letter.id);
  const marks = await bounded('recipients', reference.collection(DESTINATAIRES).select().get());
  const counts = { envoyes: 0, echecs: 0, enAttente: 0 };
  let held = 0;
  for (let start = 0; start < marks.size; start += 300) {
    const mails = marks.docs
      .slice(start, start + 300)
      .map((mark) => db.collection(OUTBOX).doc(letterMailId(letter.id, mark.id)));
    for (const mail of await bounded('counts', db.getAll(...mails, { fieldMask: ['state'] }))) {
      if (!mail.exists) continue;
      held += 1;
      const state = mail.get('state');
      if (state === 'sent') counts.envoyes += 1;
      else if (state === 'failed') counts.echecs += 1;
      else counts.enAttente += 1;
    }
  }
  if (held === 0) return letter;
  await bounded('store counts', reference.update(counts));
  return { ...letter, ...counts };
}
