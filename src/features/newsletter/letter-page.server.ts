/**
 * What /espace/lettre/<id> shows (`nouvelle`: a new letter), so that the page stays a template: after one of its actions
 * (letter-actions.server.ts: save, test, send) the redirection whose address says the outcome, or its refusal with what
 * was typed; else the letter, its counts and its preview. Failures become the page's status and French message.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import type { FieldIssue } from '../content/editing/messages';
import { failureOf } from '../espace/server-calls.server';
import { formOutcome } from '../espace/staff-action.server';
import { mailIdentity } from '../mail/mail-env.server';
import { listArticles } from '../content/articles/articles.server';
import { linkTargets, SITE_PAGES, type LinkTarget } from '../content/articles/link-targets';
import { letterBodyHtml, letterMails } from './letter-mails.server';
import { LETTER_MESSAGES, type Letter } from './letters';
import { audienceSize, loadLetter, refreshCounts, type LetterFields } from './letters.server';

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
  /** What the editor's link dialog searches: the site's pages and its published articles (made absolute in the mail). */
  links: LinkTarget[];
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

/** The page's view, or the redirection (303) that follows one of its actions done. */
export async function letterPage(astro: AstroGlobal): Promise<LetterPageView | Response> {
  const session = astro.locals.espace;
  const id = astro.params.id ?? '';
  const saveResult = astro.getActionResult(actions.lettre.save);
  const testResult = astro.getActionResult(actions.lettre.test);
  const sendResult = astro.getActionResult(actions.lettre.send);
  if (saveResult?.data) return astro.redirect(`/espace/lettre/${saveResult.data}?enregistree#apercu-titre`, 303);
  if (testResult && !testResult.error) return astro.redirect(`/espace/lettre/${id}?test#apercu-titre`, 303);
  if (sendResult?.data) return astro.redirect(`/espace/lettre/${id}?${sendResult.data}`, 303);
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
    links: [...SITE_PAGES],
  };
  const refusal = [saveResult, testResult, sendResult]
    .map((result) => formOutcome(astro, result))
    .find((post) => post.state === 'refused');
  if (refusal?.issues.length) {
    view.issues = refusal.issues;
    // A copy: the page's React island reads the post too (@astrojs/react's form state).
    const posted = await astro.request.clone().formData();
    view.fields = { objet: String(posted.get('objet') ?? ''), contenu: String(posted.get('contenu') ?? '') };
  } else if (refusal) view.error = refusal.message;
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
    // The articles are a help to find a link, not what the page is for: without them, the site's pages remain.
    if (view.letter?.statut !== 'envoyee') {
      view.links = await listArticles(session).then(linkTargets, (failure: unknown) => {
        console.warn('[espace/lettre] the link dialog lists no article:', failure);
        return view.links;
      });
    }
  } catch (failure) {
    if (!view.error) ({ status: astro.response.status, message: view.error } = failureOf(failure, '[espace/lettre]'));
  }
  if (!view.error) view.notice = noticeOf(astro.url, view.sender, view.audience);
  return view;
}
