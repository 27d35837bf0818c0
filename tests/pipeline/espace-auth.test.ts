/**
 * The space's sign-in against Firebase's answers (a local stand-in for the Auth REST API): every wrong pair reads the
 * same, Firebase's lock-out after repeated failures is said in French (HTTP 429), an unreachable service is a 503.
 * Then `npm run role` on a real Auth emulator: the role lands in the custom claims and the sessions are revoked.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { FIREBASE_AUTH_EMULATOR_HOST } from 'astro:env/server';
import { getAuth } from 'firebase-admin/auth';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startAuthEmulator, type AuthEmulator } from '../../scripts/lib/auth-emulator';
import { signInWithPassword } from '../../src/features/espace/auth.server';
import { adminApp } from '../../src/lib/firebase-app.server';
import { HttpError } from '../../src/lib/http';

/** Firebase's error code for each email the stand-in is sent. */
const ANSWERS: Record<string, string> = {
  'inconnu@exemple.fr': 'EMAIL_NOT_FOUND',
  'mauvais@exemple.fr': 'INVALID_LOGIN_CREDENTIALS',
  'bloque@exemple.fr': 'TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled',
  'panne@exemple.fr': 'INTERNAL_ERROR',
};

describe('sign-in against Firebase’s answers', () => {
  let server: Server;

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const body = JSON.parse(Buffer.concat(await request.toArray()).toString()) as { email: string };
      if (body.email === 'coupure@exemple.fr') return void request.socket.destroy();
      const code = ANSWERS[body.email] ?? 'EMAIL_NOT_FOUND';
      response.writeHead(code === 'INTERNAL_ERROR' ? 500 : 400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 400, message: code } }));
    });
    // The address tests/fixtures/site-env.ts gave astro:env.
    const port = Number(new URL(`http://${FIREBASE_AUTH_EMULATOR_HOST}`).port);
    await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  });

  afterAll(() => {
    server?.close();
  });

  const failure = (email: string) =>
    signInWithPassword(email, 'x').then(
      () => undefined,
      (error: HttpError) => ({ status: error.status, message: error.message }),
    );

  it('says the same for an unknown account and a wrong password', async () => {
    const expected = { status: 401, message: 'Email ou mot de passe incorrect' };
    expect(await failure('inconnu@exemple.fr')).toEqual(expected);
    expect(await failure('mauvais@exemple.fr')).toEqual(expected);
  });

  it('says in French that Firebase has locked the account for a while', async () => {
    expect(await failure('bloque@exemple.fr')).toEqual({
      status: 429,
      message: 'Trop de tentatives de connexion. Patientez quelques minutes, puis réessayez.',
    });
  });

  it('answers 503 when Firebase fails or cannot be reached', async () => {
    const unavailable = {
      status: 503,
      message:
        'La connexion est momentanément indisponible. ' +
        'Réessayez dans quelques minutes ; si cela dure, prévenez le bureau.',
    };
    expect(await failure('panne@exemple.fr')).toEqual(unavailable);
    expect(await failure('coupure@exemple.fr')).toEqual(unavailable);
  });
});

describe('npm run role', { timeout: 180_000 }, () => {
  let emulator: AuthEmulator;
  const project = 'demo-role';
  const run = (...args: string[]) =>
    promisify(execFile)('npx', ['tsx', 'scripts/role.ts', ...args], {
      env: { ...process.env, FIREBASE_PROJECT_ID: project, FIREBASE_AUTH_EMULATOR_HOST: emulator.address },
    });

  beforeAll(async () => {
    emulator = await startAuthEmulator(project);
  }, 180_000);

  afterAll(async () => {
    await emulator?.stop();
  });

  it('gives and takes away a role, revoking the account’s sessions each time', async () => {
    const siteEmulator = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    // firebase-admin reads it when the Auth is created (below), for this test's own admin client.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.address;
    onTestFinished(() => void (process.env.FIREBASE_AUTH_EMULATOR_HOST = siteEmulator));
    const auth = getAuth(adminApp({ FIREBASE_PROJECT_ID: project }, { emulated: true }));
    const user = await auth.createUser({ email: 'tresoriere@exemple.fr', password: 'un-mot-de-passe' });
    const { stdout } = await run('tresoriere@exemple.fr', 'tresorerie');
    expect(stdout).toContain('tresoriere@exemple.fr');
    expect((await auth.getUser(user.uid)).customClaims).toEqual({ roles: ['tresorerie'] });
    // Revoked: sessions opened before now fail `checkRevoked` (whole seconds; the script takes more than one to start).
    const revokedAt = Date.parse((await auth.getUser(user.uid)).tokensValidAfterTime as string);
    expect(revokedAt).toBeGreaterThan(Date.parse(user.tokensValidAfterTime as string));
    await run('tresoriere@exemple.fr', 'tresorerie', '--remove');
    expect((await auth.getUser(user.uid)).customClaims).toEqual({ roles: [] });
    await expect(run('tresoriere@exemple.fr', 'chef')).rejects.toThrow(/"chef" is not a role of the space/);
    // The first admin's account is created by the script (they then sign in with a link): no console needed.
    const created = await run('personne@exemple.fr', 'admin');
    expect(created.stdout).toContain('Account created');
    expect((await auth.getUserByEmail('personne@exemple.fr')).customClaims).toEqual({ roles: ['admin'] });
  });
});
