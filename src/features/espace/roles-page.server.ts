/**
 * What /espace/roles does (admin): its posts — invite a person with a role (invitations.server.tsx), take one role
 * away, « Retirer » an account's access once confirmed (accounts.server.ts) — each answered by a redirect with the
 * outcome in the address, and what the page shows: the accounts with a role, their roles and last sign-in.
 */
import { HttpError } from '../../lib/http';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { changeRole, listAccounts, removeAccess, type StaffAccount } from './accounts.server';
import { adminAuth, type StaffSession } from './auth.server';
import { readFormPost } from './form-post.server';
import { inviteAccount } from './invitations.server';
import { ESPACE_MESSAGES } from './messages';
import { isRole, ROLE_LABELS } from './roles';
import { lastVisits } from './visits.server';

/** What the page shows; `removing`: the account whose « Retirer » waits for confirmation (`?retirer=<uid>`). */
export interface RolesView {
  accounts: StaffAccount[];
  /** Accounts of the project without any role of the space (not listed). */
  withoutRole: number;
  listError?: string;
  error?: string;
  /** The field the error is about. */
  errorField?: 'email' | 'role' | 'name';
  typed: { email: string; name: string; role: string };
  notice?: string;
  removing?: StaffAccount;
}

/** What the roles page answers: a redirect after a post that worked, or the page (with its HTTP status). */
export type RolesAnswer = { redirect: string } | { status: number; view: RolesView };

/** Shown back in a field: a few hundred characters at most, whatever was sent. */
const bounded = (value: string | undefined, max = 320) => (value ?? '').trim().slice(0, max);

/** The page's answer to `request` (GET or POST) by `session`. */
export async function rolesPage(session: StaffSession | undefined, request: Request, url: URL): Promise<RolesAnswer> {
  let status = 200;
  let error: string | undefined;
  const typed = { email: '', name: '', role: '' };
  if (request.method === 'POST') {
    try {
      return { redirect: await handlePost(session, await readFormPost(request), typed) };
    } catch (failure) {
      if (!(failure instanceof HttpError) || failure.status >= 500) console.error('[espace/roles]', failure);
      status = failure instanceof HttpError ? failure.status : 503;
      error = failure instanceof HttpError ? failure.message : ESPACE_MESSAGES.unavailable;
    }
  }
  const view: RolesView = { accounts: [], withoutRole: 0, typed, ...(error ? { error } : {}) };
  if (error) view.errorField = fieldOf(error);
  try {
    const all = await listAccounts(session, adminAuth());
    const staff = all.filter((account) => account.roles.length > 0);
    // The space's own record of sign-ins (visits.server.ts): Auth's metadata counts more than signing in here.
    const visits = await lastVisits(
      adminFirestore(),
      staff.map((account) => account.uid),
    ).catch((failure: unknown) => (console.error('[espace/roles] visits', failure), new Map<string, Date>()));
    view.accounts = staff.map((account) => ({ ...account, lastSignIn: visits.get(account.uid)?.toISOString() }));
    view.withoutRole = all.length - staff.length;
  } catch (failure) {
    console.error('[espace/roles] list', failure);
    view.listError = failure instanceof HttpError ? failure.message : ESPACE_MESSAGES.unavailable;
  }
  const removing = url.searchParams.get('retirer');
  if (removing) view.removing = view.accounts.find((account) => account.uid === removing);
  if (!error) view.notice = noticeOf(url.searchParams);
  return { status, view };
}

/** The error's field: the role when none was chosen, the name when it is not one, else the address. */
function fieldOf(error: string): RolesView['errorField'] {
  if (error === ESPACE_MESSAGES.unknownRole) return 'role';
  if (error === ESPACE_MESSAGES.invitationName) return 'name';
  return error === ESPACE_MESSAGES.invalidEmail ? 'email' : undefined;
}

/** Does what the form asks and returns where to go; fills `typed` to show back on a refusal. */
async function handlePost(
  session: StaffSession | undefined,
  fields: Map<string, string>,
  typed: RolesView['typed'],
): Promise<string> {
  const action = fields.get('action');
  typed.email = bounded(fields.get('email'));
  typed.name = bounded(fields.get('nom'), 120);
  typed.role = bounded(fields.get('role'), 40);
  const done = (outcome: Record<string, string>) => `/espace/roles?${new URLSearchParams(outcome)}`;
  if (action === 'retirer-acces') {
    if (fields.get('confirmer') !== 'oui') throw new HttpError(400, ESPACE_MESSAGES.badForm);
    const email = await removeAccess(session, adminAuth(), adminFirestore(), bounded(fields.get('uid'), 128));
    return done({ fait: 'acces-retire', email });
  }
  const role = fields.get('role');
  if (action === 'retirer') {
    if (!isRole(role)) throw new HttpError(400, ESPACE_MESSAGES.unknownRole);
    await changeRole(session, adminAuth(), adminFirestore(), typed.email, role, false);
    return done({ fait: 'retire', role, email: typed.email });
  }
  const outcome = await inviteAccount(session, { email: typed.email, role, name: fields.get('nom') ?? '' });
  return done({ fait: outcome.invited ? 'invite' : 'donne', role: outcome.role, email: outcome.email });
}

/** The confirmation after a redirect (`?fait=…&role=…&email=…`), or undefined. */
function noticeOf(query: URLSearchParams): string | undefined {
  const [done, role, email] = [query.get('fait'), query.get('role'), bounded(query.get('email') ?? '')];
  if (!email) return undefined;
  if (done === 'acces-retire') {
    return `Accès retiré à ${email} : ses sessions ouvertes sont fermées. Une nouvelle invitation le lui rendra.`;
  }
  if (!isRole(role)) return undefined;
  const name = ROLE_LABELS[role].name;
  if (done === 'invite') {
    return (
      `Invitation envoyée à ${email} avec le rôle « ${name} ». Son lien sert une seule fois, pendant une heure ; ` +
      'ensuite, la personne demande un nouveau lien sur la page de connexion avec cette adresse.'
    );
  }
  if (done !== 'donne' && done !== 'retire') return undefined;
  return (
    `Rôle « ${name} » ${done === 'retire' ? 'retiré à' : 'donné à'} ${email}. ` +
    'Ses sessions ouvertes sont fermées : la personne se reconnecte pour en profiter.'
  );
}
