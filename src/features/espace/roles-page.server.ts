/**
 * The controller of /espace/roles (admin): after one of its actions (roles-actions.server.ts: invite, take a role
 * away, « Retirer ») a redirect with the outcome in the address, or after a refusal the page with what was typed; and
 * what the page shows: the accounts with a role, their roles and last sign-in.
 */
import type { AstroGlobal } from 'astro';
import { actions } from 'astro:actions';
import { HttpError } from '../../lib/http';
import { adminFirestore } from '../../lib/firebase-admin.server';
import { listAccounts, type StaffAccount } from './accounts.server';
import { adminAuth } from './auth.server';
import { ESPACE_MESSAGES } from './messages';
import { isRole, ROLE_LABELS } from './roles';
import { formOutcome, typedText } from './staff-action.server';
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

/** Shown back in a field: a few hundred characters at most, whatever was sent. */
const bounded = (value: string, max = 320) => value.trim().slice(0, max);

/** The redirect after one of the page's actions (roles-actions.server.ts) worked, or what the page shows. */
export async function rolesPage(Astro: AstroGlobal): Promise<Response | RolesView> {
  const session = Astro.locals.espace;
  const results = [actions.roles.invite, actions.roles.removeRole, actions.roles.removeAccess].map((action) =>
    Astro.getActionResult(action),
  );
  const done = results.find((result) => result?.data);
  if (done?.data) return Astro.redirect(`/espace/roles?${new URLSearchParams(done.data)}`, 303);
  const refusal = results.map((result) => formOutcome(Astro, result)).find((outcome) => outcome.state === 'refused');
  const error = refusal?.state === 'refused' ? (refusal.issues[0]?.message ?? refusal.message) : undefined;
  const typed = { email: '', name: '', role: '' };
  if (error) {
    const posted = await Astro.request.formData();
    Object.assign(typed, {
      email: typedText(posted, 'email', 320).trim(),
      name: typedText(posted, 'nom', 120).trim(),
      role: typedText(posted, 'role', 40).trim(),
    });
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
  const removing = Astro.url.searchParams.get('retirer');
  if (removing) view.removing = view.accounts.find((account) => account.uid === removing);
  if (!error) view.notice = noticeOf(Astro.url.searchParams);
  return view;
}

/** The error's field: the role when none was chosen, the name when it is not one, else the address. */
function fieldOf(error: string): RolesView['errorField'] {
  if (error === ESPACE_MESSAGES.unknownRole) return 'role';
  if (error === ESPACE_MESSAGES.invitationName) return 'name';
  return error === ESPACE_MESSAGES.invalidEmail ? 'email' : undefined;
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
