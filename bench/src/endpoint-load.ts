/**
 * Load test of the two form endpoints (POST /api/newsletter, /api/preinscription) through the
 * built function and firebase-admin: autocannon at a fixed number of connections, then a burst of
 * concurrent submissions; each time every request carries a new email, and Firestore is read
 * back (firebase-admin) to check that every 2xx left exactly one document and nothing else did.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore, type Firestore } from 'firebase-admin/firestore';
import { currentConsent } from '../../src/features/forms/form-rules.ts';
import { BenchError } from './processes.ts';

/** The two measured endpoints and their collections. */
export const ENDPOINTS = {
  newsletter: { path: '/api/newsletter', collection: 'newsletter' },
  preinscription: { path: '/api/preinscription', collection: 'inscripitions' },
} as const;

/** One of ENDPOINTS. */
export type EndpointName = keyof typeof ENDPOINTS;

/** Where the served function writes. */
export interface BenchDatabase {
  /** `embedded` (@firestore-emulator/server) or `google` (Google's Java emulator). */
  kind: 'embedded' | 'google';
  /** `host:port` of the emulator. */
  address: string;
  projectId: string;
}

/** firebase-admin on `database` (the site's own client reads astro:env, which exists only inside Astro). */
function adminFirestore(database: BenchDatabase): Firestore {
  // firebase-admin connects to FIRESTORE_EMULATOR_HOST when it makes the client, without probing Google's metadata
  // server.
  Object.assign(process.env, { FIRESTORE_EMULATOR_HOST: database.address, METADATA_SERVER_DETECTION: 'none' });
  const name = `bench-${database.address}`;
  return getFirestore(
    getApps().find((app) => app.name === name) ?? initializeApp({ projectId: database.projectId }, name),
  );
}

/** Throughput and latency of one autocannon run. */
export interface RunSummary {
  /** Run length, in seconds. */
  durationSeconds: number;
  /** Answers received. */
  requests: number;
  /** Answers per second. */
  requestsPerSecond: number;
  /** Latency percentiles, in milliseconds. */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
}

/** One document per 2xx, checked by reading the collection back. */
export interface Consistency {
  /** Answers by status code. */
  statusCounts: Record<string, number>;
  /** 2xx answers. */
  ok: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Documents of this run's emails. */
  documents: number;
  /** 2xx emails without a document. */
  missing: number;
  /** Emails with more than one document. */
  duplicated: number;
  /** Documents whose request got no 2xx (in flight when autocannon stopped, or written after a failed answer). */
  unanswered: number;
  /** Every 2xx left exactly one document. */
  consistent: boolean;
}

/** What one endpoint on one database measured. */
export interface EndpointLoad extends RunSummary {
  endpoint: EndpointName;
  database: BenchDatabase['kind'];
  connections: number;
  /** The autocannon run (warm-up included) checked against the database. */
  sustained: Consistency;
  /**
   * `size` requests sent at once (one connection each; `firstStatuses`: their answers), then every
   * one not answered 2xx sent again with its submission key (`retries` requests); checked against
   * the database with the final answers.
   */
  burst: Consistency & { size: number; seconds: number; firstStatuses: Record<string, number>; retries: number };
  /** The same load with an invalid email (400 before any database access): the function's own cost. */
  refused?: RunSummary & { status4xx: number };
}

/** Options of {@link loadEndpoint}. */
export interface LoadOptions {
  /** Base URL of the served site, e.g. `http://127.0.0.1:4500`. */
  url: string;
  endpoint: EndpointName;
  database: BenchDatabase;
  /** Concurrent connections of the sustained run (one request in flight each). */
  connections: number;
  /** Length of the measured run, in seconds (a warm-up of a fifth of it, at least 2 s, comes first). */
  durationSeconds: number;
  /** Requests of the burst, all sent at once. */
  burstSize: number;
  /** Also measure the invalid-email run. */
  measureRefused?: boolean;
}

let sequence = 0;

/** A valid payload for `endpoint` with `email`, as the islands send it. */
function payload(endpoint: EndpointName, email: string): Record<string, unknown> {
  const consent = { consentement: true, consentementVersion: currentConsent(endpoint).version };
  if (endpoint === 'newsletter') return { email, ...consent };
  return {
    enfantPrenom: 'Léa',
    enfantNom: 'Martin',
    infos: 'Elle adore dessiner 🎨 et a besoin de pauses calmes.',
    parentPrenom: 'Sophie',
    parentNom: 'Martin',
    email,
    adresse: '3 rue des Lilas',
    postal: '69007',
    ville: 'Lyon',
    pays: 'FR',
    ...consent,
  };
}

/**
 * Runs a warm-up, the measured autocannon run, a burst, and (optionally) the invalid-email run,
 * then checks the documents.
 * @throws BenchError when no request succeeded or Firestore cannot be read.
 */
export async function loadEndpoint(options: LoadOptions): Promise<EndpointLoad> {
  const { endpoint, database } = options;
  const runId = `${database.kind}-${Date.now().toString(36)}`;
  const answered = new Map<string, number>();
  const run = (seconds: number, valid = true) =>
    autocannon({
      url: options.url,
      connections: options.connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          path: ENDPOINTS[endpoint].path,
          headers: { 'content-type': 'application/json' },
          setupRequest: (request, context: { email?: string }) => {
            sequence += 1;
            context.email = `bench-${runId}-${sequence}@example.org`;
            // The invalid variant (no "@") is refused with 400 before any database access.
            const email = valid ? context.email : context.email.replace('@', '-at-');
            return { ...request, body: JSON.stringify(payload(endpoint, email)) };
          },
          onResponse: (status, _body, context: { email?: string }) => {
            if (valid && context.email) answered.set(context.email, status);
          },
        },
      ],
    });
  const warmUp = await run(Math.max(2, Math.round(options.durationSeconds / 5)));
  const measured = await run(options.durationSeconds);
  // Requests still in flight when autocannon stopped may still write: let the server finish them.
  await new Promise((resolveWait) => setTimeout(resolveWait, 2_000));
  // Checked before the burst, whose emails share this run's prefix.
  const sustained = await checkDocuments(
    database,
    endpoint,
    answered,
    warmUp.errors + measured.errors,
    `bench-${runId}-`,
  );
  if (sustained.ok === 0) {
    throw new BenchError(
      `POST ${ENDPOINTS[endpoint].path} (${database.kind}) never answered 2xx (answers by status: ` +
        `${JSON.stringify(sustained.statusCounts)}, errors: ${sustained.errors}).`,
    );
  }
  const burst = await runBurst(options, `${runId}-burst`);
  const refused = options.measureRefused
    ? await run(Math.max(2, Math.round(options.durationSeconds / 2)), false)
    : undefined;
  return {
    endpoint,
    database: database.kind,
    connections: options.connections,
    ...summary(measured),
    sustained,
    burst,
    ...(refused ? { refused: { ...summary(refused), status4xx: refused['4xx'] } } : {}),
  };
}

/**
 * Sends `burstSize` submissions at once (fetch, one connection each), each with its own submission
 * key; then, as an island would, sends every one not answered 2xx again with the same key (20 at a
 * time, up to 3 more times), and checks that each email left exactly one document.
 */
async function runBurst(options: LoadOptions, runId: string): Promise<EndpointLoad['burst']> {
  const answered = new Map<string, number>();
  const firstStatuses: Record<string, number> = {};
  let errors = 0;
  const send = async (email: string, envoi: string): Promise<number> => {
    try {
      const response = await fetch(`${options.url}${ENDPOINTS[options.endpoint].path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', connection: 'close' },
        body: JSON.stringify({ ...payload(options.endpoint, email), envoi }),
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      return response.status;
    } catch {
      errors += 1;
      return 0;
    }
  };
  const submissions = Array.from({ length: options.burstSize }, (_, index) => ({
    email: `bench-${runId}-${index}@example.org`,
    envoi: randomUUID(),
  }));
  const started = performance.now();
  await Promise.all(
    submissions.map(async ({ email, envoi }) => {
      const status = await send(email, envoi);
      firstStatuses[status] = (firstStatuses[status] ?? 0) + 1;
      answered.set(email, status);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  let retries = 0;
  for (let round = 0; round < 3; round += 1) {
    const failed = submissions.filter(({ email }) => !isOk(answered.get(email) ?? 0));
    for (let at = 0; at < failed.length; at += 20) {
      await Promise.all(
        failed.slice(at, at + 20).map(async ({ email, envoi }) => {
          retries += 1;
          answered.set(email, await send(email, envoi));
        }),
      );
    }
  }
  await new Promise((resolveWait) => setTimeout(resolveWait, 2_000));
  return {
    size: options.burstSize,
    seconds,
    firstStatuses,
    retries,
    ...(await checkDocuments(options.database, options.endpoint, answered, errors, `bench-${runId}-`)),
  };
}

const isOk = (status: number) => status >= 200 && status < 300;

/**
 * Compares the answers (email → status) with the documents of the endpoint's collection whose email starts with
 * `prefix`.
 */
async function checkDocuments(
  database: BenchDatabase,
  endpoint: EndpointName,
  answered: Map<string, number>,
  errors: number,
  prefix: string,
): Promise<Consistency> {
  const statusCounts: Record<string, number> = {};
  for (const status of answered.values()) statusCounts[status] = (statusCounts[status] ?? 0) + 1;
  const okEmails = new Set([...answered].filter(([, status]) => status >= 200 && status < 300).map(([email]) => email));
  const stored = (await storedEmails(database, ENDPOINTS[endpoint].collection)).filter((email) =>
    email.startsWith(prefix),
  );
  const perEmail = new Map<string, number>();
  for (const email of stored) perEmail.set(email, (perEmail.get(email) ?? 0) + 1);
  const missing = [...okEmails].filter((email) => !perEmail.has(email)).length;
  const duplicated = [...perEmail.values()].filter((count) => count > 1).length;
  const unanswered = stored.filter((email) => !okEmails.has(email)).length;
  return {
    statusCounts,
    ok: okEmails.size,
    errors,
    documents: stored.length,
    missing,
    duplicated,
    unanswered,
    consistent: missing === 0 && duplicated === 0,
  };
}

/**
 * Waits until `database` takes a write (Google's emulator answers HTTP long before its first
 * write, which can take over 10 s on a busy machine: more than the endpoints' 8 s bound).
 * @throws BenchError when no write succeeds within `timeoutMs` (default 120 000 ms).
 */
export async function primeDatabase(database: BenchDatabase, timeoutMs = 120_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      adminFirestore(database).collection('bench-warm-up').doc().create({ at: Date.now() }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no write within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    throw new BenchError(`The ${database.kind} emulator at ${database.address} takes no write: ${String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** Emails of every document of `collection`, read with firebase-admin (works on both emulators). */
async function storedEmails(database: BenchDatabase, collection: string): Promise<string[]> {
  try {
    const snapshot = await adminFirestore(database).collection(collection).select('email').get();
    return snapshot.docs.map((document) => String(document.get('email')));
  } catch (error) {
    throw new BenchError(
      `Cannot read ${collection} at ${database.address}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Length, answers, throughput and latency of one autocannon run. */
function summary(result: autocannon.Result): RunSummary {
  const responses = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'];
  return {
    durationSeconds: result.duration,
    requests: responses,
    requestsPerSecond: responses / result.duration,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: result.latency.mean,
    },
  };
}
