/**
 * Load test of `POST /api/newsletter` with autocannon (every request a new
 * email), then a check in Firestore that every 2xx left exactly one document
 * of `newsletter` with its email.
 */
import autocannon from 'autocannon';
import { collection, getDocsFromServer } from 'firebase/firestore';
import { connectFirestore, firestoreTargetFromEnv } from '../../src/lib/firestore.server.ts';
import { BenchError } from './processes.ts';

/** Options of {@link loadNewsletter}. */
export interface LoadOptions {
  /** Base URL of the site, e.g. `http://127.0.0.1:4500`. */
  url: string;
  /** `host:port` of the emulator the endpoint writes to. */
  emulatorAddress: string;
  /** Its project id. */
  projectId: string;
  /** Concurrent connections (one request in flight each). */
  connections: number;
  /** Length of the measured run, in seconds (a warm-up of a fifth of it, at least 2 s, comes first). */
  durationSeconds: number;
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

/** What the load test measured: the measured run's summary (warm-up excluded), and the checks. */
export interface LoadResult extends RunSummary {
  connections: number;
  /**
   * The same load with an invalid email (400, refused before any database
   * access): the cost of the function without Firestore, for comparison.
   */
  refused: RunSummary & { status4xx: number };
  /** Answers by status code, warm-up included. */
  statusCounts: Record<string, number>;
  /** 2xx answers, warm-up included. */
  ok: number;
  /** Non-2xx answers, warm-up included. */
  notOk: number;
  /** Connection errors and timeouts, warm-up included. */
  errors: number;
  /** Documents in `newsletter` afterwards. */
  documents: number;
  /** 2xx emails without a document. */
  missing: number;
  /** Emails with more than one document. */
  duplicated: number;
  /** Documents whose request got no 2xx (in flight when autocannon stopped, or a write after a failed answer). */
  unanswered: number;
  /** Whether every 2xx left exactly one document. */
  consistent: boolean;
}

/**
 * Runs a warm-up, the measured autocannon run, then the same load with
 * invalid emails (no write), waits for the server to finish requests still in
 * flight, and counts the documents.
 * @throws BenchError when no request succeeded or Firestore cannot be read.
 */
export async function loadNewsletter(options: LoadOptions): Promise<LoadResult> {
  const answered = new Map<string, number>();
  let sequence = 0;
  const runId = Date.now().toString(36);
  const run = (seconds: number, valid = true) =>
    autocannon({
      url: options.url,
      connections: options.connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          path: '/api/newsletter',
          headers: { 'content-type': 'application/json' },
          setupRequest: (request, context: { email?: string }) => {
            sequence += 1;
            context.email = `bench-${runId}-${sequence}@example.org`;
            // The invalid variant (no "@") is refused with 400 before any database access.
            const email = valid ? context.email : context.email.replace('@', '-at-');
            return { ...request, body: JSON.stringify({ email, consentement: true }) };
          },
          onResponse: (status, _body, context: { email?: string }) => {
            if (valid && context.email) answered.set(context.email, status);
          },
        },
      ],
    });
  const warmUp = await run(Math.max(2, Math.round(options.durationSeconds / 5)));
  const measured = await run(options.durationSeconds);
  const refused = await run(Math.max(2, Math.round(options.durationSeconds / 2)), false);
  const statusCounts: Record<string, number> = {};
  for (const status of answered.values()) statusCounts[status] = (statusCounts[status] ?? 0) + 1;
  const okEmails = new Set([...answered].filter(([, status]) => status >= 200 && status < 300).map(([email]) => email));
  if (okEmails.size === 0) {
    throw new BenchError(
      `POST /api/newsletter never answered 2xx (answers by status: ${JSON.stringify(statusCounts)}, errors: ${measured.errors}).`,
    );
  }
  // Requests still in flight when autocannon stopped may still write: let the server finish them.
  await new Promise((resolveWait) => setTimeout(resolveWait, 2_000));
  const stored = await newsletterEmails(options.emulatorAddress, options.projectId);
  const perEmail = new Map<string, number>();
  for (const email of stored) perEmail.set(email, (perEmail.get(email) ?? 0) + 1);
  const missing = [...okEmails].filter((email) => !perEmail.has(email)).length;
  const duplicated = [...perEmail.values()].filter((count) => count > 1).length;
  const unanswered = stored.filter((email) => !okEmails.has(email)).length;
  return {
    connections: options.connections,
    ...summary(measured),
    refused: { ...summary(refused), status4xx: refused['4xx'] },
    statusCounts,
    ok: okEmails.size,
    notOk: answered.size - okEmails.size,
    errors: warmUp.errors + measured.errors,
    documents: stored.length,
    missing,
    duplicated,
    unanswered,
    consistent: missing === 0 && duplicated === 0,
  };
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

/**
 * Emails of every `newsletter` document, read from the server with a fresh
 * client (the embedded emulator answers only a client's first Listen query).
 */
async function newsletterEmails(emulatorAddress: string, projectId: string): Promise<string[]> {
  const connection = connectFirestore(
    firestoreTargetFromEnv({ FIREBASE_PROJECT_ID: projectId, FIRESTORE_EMULATOR_HOST: emulatorAddress }),
  );
  try {
    const snapshot = await getDocsFromServer(collection(connection.db, 'newsletter'));
    return snapshot.docs.map((document) => String(document.get('email')));
  } catch (error) {
    throw new BenchError(
      `Cannot count the newsletter documents at ${emulatorAddress}: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await connection.close();
  }
}
