/**
 * What /espace/lettre/<id> does (`nouvelle`: a new letter), so that the page stays a template: a POST saves the letter
 * (`action=enregistrer`), queues its test to the signed-in person (`test`) or sends it to the subscribers (`envoyer`,
 * with `confirmer=oui`), then answers with a redirection whose address says the outcome; a GET reads the letter, its
 * counts and its preview. Failures become the page's status and French message.
 */
import type { AstroGlobal } from 'astro';
import { mediaType, readBoundedBody } from '../../lib/endpoint.server';
import { HttpError } from '../../lib/http';
import type { FieldIssue } from '../content/editing/messages';
import { assertPlainFields } from '../espace/form-post.server';
import { ESPACE_MESSAGES } from '../espace/messages';
import { failureOf } from '../espace/server-calls.server';
import { mailIdentity, trySend } from '../mail/mail-env.server';
import { letterBodyHtml, letterMails } from './letter-mails.server';
import { LETTER_MESSAGES, type Letter } from './letters';
import {
  audienceSize,
  LetterRefused,
  loadLetter,
  queueLetterTest,
  refreshCounts,
  saveLetter,
  sendLetter,
  type LetterFields,
} from './letters.server';

/** Largest letter post (bytes): a body of BODY_MAX characters, URL-encoded, fits. */
const MAX_LETTER_BYTES = 512 * 1024;

/** A request waits this long (ms) for its first mails to leave; the outbox's drain sends the rest. */
const FIRST_SEND_MS = 3000;

/** A send stops starting batches after this long (ms), within a function's time; « Envoyer » again goes on. */
const SEND_DEADLINE_MS = 5000;

/** The posted fields (form media types only, as form-post.server.ts). @throws HttpError 400, 413, 415. */
async function readLetterPost(request: Request): Promise<Map<string, string>> {
  const type = mediaType(request);
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
    throw new HttpError(415, ESPACE_MESSAGES.badForm);
  }
  const body = new Response(await readBoundedBody(request, MAX_LETTER_BYTES), { headers: request.headers });
  const form = await body.formData().catch((error: unknown) => {
    throw new HttpError(400, ESPACE_MESSAGES.badForm, { cause: error });
  });
  const entries = [...form].map(([name, value]) => {
    if (typeof value !== 'string') throw new HttpError(400, ESPACE_MESSAGES.badForm);
    return [name, value] as [string, string];
  });
  // Lengths are the letter's own refusals (checkedFields), said by the field with the text kept.
  assertPlainFields(entries, MAX_LETTER_BYTES);
  return new Map(entries);
}

/** The page's data: the letter (none for a new one), the form's fields, refusals and outcome, the preview. */
export interface LetterPageView {
  id: string;
  letter: Letter | undefined;
  fields: LetterFields;
  issues: FieldIssue[];
  notice: string | undefined;
  error: string | undefined;
  /** Confirmed subscribers today. */
  audience: number;
  /** The signed-in person's address, where the test goes. */
  sender: string;
  /** `?envoyer`: the send's confirmation is asked. */
  asking: boolean;
  /** The letter as a subscriber gets it: its body as the mail's HTML part has it, and the plain-text part. */
  preview: { html: string; text: string } | undefined;
}

/** The outcome of a POST as the address it redirects to, or the refusal to show. */
async function post(astro: AstroGlobal, id: string): Promise<string> {
  const session = astro.locals.espace;
  const fields = await readLetterPost(astro.request);
  const action = fields.get('action');
  if (action === 'test') {
    await trySend([await queueLetterTest(session, id, { identity: await mailIdentity(), now: Date.now() })], 3000);
    return `/espace/lettre/${id}?test#apercu-titre`;
  }
  if (action === 'envoyer') {
    if (fields.get('confirmer') !== 'oui') throw new HttpError(400, LETTER_MESSAGES.sendUnconfirmed);
    const report = await sendLetter(session, id, { identity: await mailIdentity(), deadlineMs: SEND_DEADLINE_MS });
    await trySend(report.queued.slice(0, 20), FIRST_SEND_MS);
    return `/espace/lettre/${id}?envoyee=${report.queued.length}${report.finished ? '' : '&suite'}`;
  }
  const saved = await saveLetter(session, id, {
    objet: fields.get('objet') ?? '',
    contenu: fields.get('contenu') ?? '',
  });
  return `/espace/lettre/${saved}?enregistree#apercu-titre`;
}

/** The outcome the address names (after a redirection), in French. */
function noticeOf(url: URL, sender: string, audience: number): string | undefined {
  const params = url.searchParams;
  if (params.has('enregistree')) return LETTER_MESSAGES.saved;
  if (params.has('test')) return LETTER_MESSAGES.testSent(sender);
  const sent = params.get('envoyee');
  if (sent === null || !/^\d+$/.test(sent)) return undefined;
  if (params.has('suite')) return LETTER_MESSAGES.unfinished(Number(sent));
  if (Number(sent) > 0) return LETTER_MESSAGES.queued(Number(sent));
  return audience === 0 ? LETTER_MESSAGES.noSubscriber : LETTER_MESSAGES.nobodyNew;
}

/** The page's view, or the redirection that follows a POST done. */
export async function letterPage(astro: AstroGlobal): Promise<LetterPageView | Response> {
  const session = astro.locals.espace;
  const id = astro.params.id ?? '';
  const view: LetterPageView = {
    id,
    letter: undefined,
    fields: { objet: '', contenu: '' },
    issues: [],
    notice: undefined,
    error: undefined,
    audience: 0,
    sender: session?.email ?? '',
    asking: astro.url.searchParams.has('envoyer'),
    preview: undefined,
  };
  const fail = (failure: unknown) =>
    ({ status: astro.response.status, message: view.error } = failureOf(failure, '[espace/lettre]'));
  if (astro.request.method === 'POST') {
    try {
      return astro.redirect(await post(astro, id), 303);
    } catch (failure) {
      if (failure instanceof LetterRefused) {
        astro.response.status = 400;
        ({ issues: view.issues, fields: view.fields } = failure);
      } else fail(failure);
    }
  }
  try {
    view.audience = await audienceSize(session);
    if (id !== 'nouvelle') {
      view.letter = await refreshCounts(session, await loadLetter(session, id));
      if (view.issues.length === 0) view.fields = { objet: view.letter.objet, contenu: view.letter.contenu };
      const identity = await mailIdentity();
      const mail = (await letterMails({ identity, letterId: id, ...view.letter }))({
        id: 'apercu',
        email: view.sender,
        token: 'apercu',
      });
      view.preview = {
        html: letterBodyHtml(view.letter.contenu, identity.siteUrl, { forPage: true }),
        text: mail.text,
      };
    }
  } catch (failure) {
    if (!view.error) fail(failure);
  }
  if (!view.error) view.notice = noticeOf(astro.url, view.sender, view.audience);
  return view;
}
