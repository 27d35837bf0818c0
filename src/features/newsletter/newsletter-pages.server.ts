/**
 * What the newsletter's two pages do on a POST (src/pages/newsletter/): read the token (the form's `jeton`, else the
 * address's, as in a one-click unsubscription), change the subscription within 8 s, say the outcome in French.
 */
import { adminFirestore } from '../../lib/firebase-admin.server';
import { readBoundedBody } from '../../lib/endpoint.server';
import { withDeadline } from '../../lib/deadline';
import { confirmSubscription, unsubscribe, type TokenOutcome } from './subscription.server';

/** Every French outcome of the two pages, and its HTTP status. */
export const NEWSLETTER_OUTCOMES = {
  confirm: {
    done:
      'Merci ! Votre inscription à la lettre d’information est confirmée. ' +
      'Chaque lettre contiendra un lien pour vous désinscrire en un clic.',
    already: 'Votre inscription était déjà confirmée : vous n’avez rien d’autre à faire.',
    invalid:
      'Ce lien de confirmation n’est plus valable : il a peut-être déjà servi, ' +
      'ou un message plus récent l’a remplacé. ' +
      'Pour vous inscrire, utilisez le formulaire de la page d’accueil.',
    error:
      'Le service est momentanément indisponible : votre inscription n’est pas encore confirmée. ' +
      'Merci de réessayer dans quelques minutes.',
  },
  unsubscribe: {
    done:
      'Vous êtes désinscrit : vous ne recevrez plus notre lettre d’information. ' +
      'Nous ne gardons de votre inscription que la preuve de votre consentement et de son retrait.',
    already: 'Vous êtes déjà désinscrit : vous ne recevez plus notre lettre d’information.',
    invalid:
      'Ce lien de désinscription n’est pas valable. ' +
      'Pour ne plus recevoir notre lettre, répondez simplement à l’une d’elles : nous vous désinscrirons.',
    error:
      'Le service est momentanément indisponible : votre désinscription n’est pas encore enregistrée. ' +
      'Merci de réessayer dans quelques minutes.',
  },
} as const satisfies Record<string, Record<TokenOutcome | 'error', string>>;

const STATUS: Record<TokenOutcome | 'error', number> = { done: 200, already: 200, invalid: 400, error: 503 };

/** The token of a request: the form field `jeton` (a body of at most 2 KB), else the address's `?jeton=`. */
async function postedToken(request: Request, url: URL): Promise<string> {
  const body = await readBoundedBody(request, 2048).catch(() => new Uint8Array());
  const fromForm = new URLSearchParams(new TextDecoder().decode(body)).get('jeton');
  return fromForm ?? url.searchParams.get('jeton') ?? '';
}

/** Confirms or unsubscribes for a POST to a newsletter page: the outcome's text, success and HTTP status. */
export async function newsletterPost(action: 'confirm' | 'unsubscribe', request: Request, url: URL) {
  const token = await postedToken(request, url);
  const change = action === 'confirm' ? confirmSubscription : unsubscribe;
  const outcome: TokenOutcome | 'error' = await withDeadline(change(adminFirestore(), token, Date.now()), 8000).catch(
    (error: unknown) => {
      console.error(`[newsletter/${action}] ${error instanceof Error ? error.message : String(error)}`);
      return 'error' as const;
    },
  );
  return { text: NEWSLETTER_OUTCOMES[action][outcome], success: STATUS[outcome] === 200, status: STATUS[outcome] };
}
