/**
 * What the staff space's browser tests share: the built site's Auth emulator and Firestore (playwright.config.ts),
 * the demo accounts, signing in on the page, and a same-origin form post.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Cookie, type Page } from '@playwright/test';
import { getAuth } from 'firebase-admin/auth';
import type { Firestore } from 'firebase-admin/firestore';
import { createDemoAccounts, DEMO_PASSWORD } from '../../scripts/lib/auth-emulator';
import type { Role } from '../../src/features/espace/roles';
import { adminApp, adminFirestoreOf } from '../../src/lib/firebase-app.server';

/** The built site's Firebase project (emulated). */
export const PROJECT = 'demo-e2e';

/** The session cookie's name. */
export const COOKIE = '__Host-espace-session';

/** Creates the demo accounts (idempotent) and returns firebase-admin's Firestore on the built site's emulator. */
export async function espaceDatabase(): Promise<Firestore> {
  await createDemoAccounts(PROJECT, `127.0.0.1:${process.env.E2E_AUTH_PORT}`);
  return adminFirestoreOf({
    FIREBASE_PROJECT_ID: PROJECT,
    FIRESTORE_EMULATOR_HOST: `127.0.0.1:${process.env.E2E_FIRESTORE_PORT}`,
  });
}

/** A short unique text for ids and addresses. */
export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/**
 * A new account with `role` (demo password): ending its sessions or signing it out touches no other test, which the
 * demo accounts' would (a sign-out ends every session of the account, the saved ones of auth.setup.ts included).
 */
export async function newAccount(role: Role): Promise<string> {
  const email = `session-${unique()}@demo.test`;
  const auth = getAuth(adminApp({ FIREBASE_PROJECT_ID: PROJECT }, { emulated: true }));
  const user = await auth.createUser({ email, password: DEMO_PASSWORD });
  await auth.setCustomUserClaims(user.uid, { roles: [role] });
  return email;
}

/** Where the `sign-in` set-up project saves the browser state of the demo account `email` (auth.setup.ts). */
export const storageStateOf = (email: string): string =>
  fileURLToPath(new URL(`../../test-results/.auth/${email}.json`, import.meta.url));

/**
 * Opens the space's home signed in as `email`. On the built site a demo account starts from the session the set-up
 * project saved (no form: one sign-in per role and run); another account or password, or a saved session that has
 * ended, signs in through the form (signInThroughForm).
 */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  const saved = storageStateOf(email);
  if (password === DEMO_PASSWORD && test.info().project.name === 'built' && existsSync(saved)) {
    const state = JSON.parse(readFileSync(saved, 'utf8')) as { cookies: Cookie[] };
    await page.context().addCookies(state.cookies);
    await page.goto('/espace');
    if (new URL(page.url()).pathname === '/espace') return;
  }
  await signInThroughForm(page, email, password);
}

/** Signs in on the sign-in page as `email` (demo password) and waits for the space's home. */
export async function signInThroughForm(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/espace/connexion');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Mot de passe').fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL(/\/espace$/);
}

/** A form post to `path` as the site's own form sends it (same origin), with `fields`. */
export function post(request: APIRequestContext, baseURL: string, path: string, fields: Record<string, string>) {
  return request.post(path, { form: fields, headers: { origin: baseURL }, maxRedirects: 0 });
}

/** The rows of a space page's « Historique des modifications » table (row 0: its headings; 1: the newest change). */
export const historyRows = (page: Page) => page.getByRole('region', { name: /modification/ }).getByRole('row');

/**
 * Clicks « Rétablir la version d’avant » of the newest change in the page's history (the button's accessible name
 * matching `name` when given), and waits for the page's word that it is done.
 */
export async function restoreNewest(page: Page, name = /Rétablir la version d’avant/): Promise<void> {
  await historyRows(page).nth(1).getByRole('button', { name }).click();
  await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveText(
    'La version choisie est rétablie. Le changement est inscrit dans l’historique.',
  );
}

/** The mails the tests' SMTP catcher received for the outbox document `id` (its Message-ID), as the relay got them. */
export async function mailsOfOutbox(id: string): Promise<{ to: string[]; subject: string }[]> {
  const mails = (await (await fetch(`http://127.0.0.1:${process.env.E2E_MAIL_HTTP_PORT}/mails.json`)).json()) as {
    to: string[];
    subject: string;
    headers: Record<string, string>;
  }[];
  return mails.filter((mail) => mail.headers['message-id']?.startsWith(`<${id}@`));
}
