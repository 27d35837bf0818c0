/**
 * The content pull: reads every document of menus, categories, articles and
 * partenaires from Firestore, normalises and validates them with the schemas
 * of src/content.config.ts, then writes the JSON that Astro's `file()`
 * loaders read. Nothing is written unless everything succeeded, and files are
 * replaced by rename, so a failure leaves the previous JSON byte-for-byte.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { collection, getDocsFromServer, type QuerySnapshot } from 'firebase/firestore';
import { dataFiles, firestoreSchemas, type CollectionName } from '../../src/content.config.ts';
import type { FirestoreConnection } from '../../src/lib/firestore.server.ts';
import { formatIssues, normalizeFirestoreValue } from './normalize.ts';
import type { ContentReport } from '../../src/lib/report.ts';
import { collectPictureUses, pullPictures } from './pictures.ts';

/** Raised when the pull cannot produce a complete, valid dataset. */
export class PullError extends Error {
  override name = 'PullError';
}

/** Options of {@link pullContent}. */
export interface PullOptions {
  /**
   * Opens a Firestore client. The pull opens one per collection and reads them
   * in parallel: faster, and the embedded emulator answers only the first
   * query of a client's Listen stream.
   */
  connect: () => FirestoreConnection;
  /** Host shown in messages (e.g. `127.0.0.1:8080`). */
  host: string;
  /** Project root; the JSON goes to `<root>/src/data/`. Default: current directory. */
  root?: string;
  /** Give up reading one collection after this many milliseconds (default 20 000). */
  timeoutMs?: number;
  /** Progress output, one line per collection (default console.log). */
  log?: (line: string) => void;
  /** Download cache of the pictures step (default node_modules/.cache/contenu-images; see docs/pictures.md). */
  picturesCacheDir?: string;
}

/** What the pull wrote: documents per collection. */
export type PullSummary = Record<CollectionName, number>;

/** src → optimisable file (scripts/lib/pictures.ts), read by src/lib/pictures.server.ts. */
export const PICTURES_MANIFEST = 'src/data/pictures.json';
/** The content report of the last successful pull. */
export const REPORT_FILE = 'src/data/report.json';

/** Collections that must hold at least one document (an empty one means the wrong database). */
const REQUIRED_NON_EMPTY: CollectionName[] = ['menus', 'categories', 'articles'];
/** Documents the layout cannot do without: [collection, id]. */
const REQUIRED_DOCUMENTS: [CollectionName, string][] = [
  ['menus', 'principal'],
  ['menus', 'pied'],
  ['articles', 'adresse'],
];

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PullError(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Runs the pull (see module doc).
 * @returns the number of documents written per collection.
 * @throws PullError naming the host when the database is unreachable or
 *   times out, naming collection/id/field for an invalid document, and for an
 *   empty collection or a missing required document. Nothing is written then.
 */
export async function pullContent(options: PullOptions): Promise<PullSummary> {
  const { connect, host, root = process.cwd(), timeoutMs = 20_000, log = console.log, picturesCacheDir } = options;
  const names = Object.keys(firestoreSchemas) as CollectionName[];
  const snapshots = await Promise.all(names.map((name) => readCollection(connect, name, host, timeoutMs, log)));
  const results = {} as Record<CollectionName, Record<string, unknown>>;
  const problems: string[] = [];
  for (const [index, name] of names.entries()) {
    const documents: Record<string, unknown> = {};
    for (const document of (snapshots[index] as QuerySnapshot).docs) {
      const raw = normalizeFirestoreValue(document.data());
      const parsed = firestoreSchemas[name].safeParse(raw);
      if (parsed.success) documents[document.id] = parsed.data;
      else problems.push(...formatIssues(name, document.id, raw, parsed.error));
    }
    results[name] = documents;
  }

  for (const name of REQUIRED_NON_EMPTY) {
    if (Object.keys(results[name]).length === 0 && !problems.some((line) => line.startsWith(`${name}/`))) {
      problems.push(`${name}: the collection is empty on ${host}; refusing to publish an empty site.`);
    }
  }
  for (const [name, id] of REQUIRED_DOCUMENTS) {
    if (!(id in results[name]) && !problems.some((line) => line.startsWith(`${name}/${id}:`))) {
      problems.push(`${name}/${id}: the document is missing on ${host}; the layout needs it.`);
    }
  }
  if (problems.length > 0) {
    throw new PullError(
      `${problems.length} problem(s) in the content; nothing was written:\n  ${problems.join('\n  ')}\nFix the documents in Firestore (or the demo dataset in content/demo/) and run the pull again.`,
    );
  }

  const pictures = await pullPictures(collectPictureUses(results), { root, log, cacheDir: picturesCacheDir });
  const report: ContentReport = {
    generatedAt: Math.floor(Date.now() / 1000),
    collections: Object.fromEntries(
      names.map((name, index) => [
        name,
        { read: (snapshots[index] as QuerySnapshot).size, shown: Object.keys(results[name]).length },
      ]),
    ),
    problems: [],
    pictures: { fetched: pictures.fetched, failed: pictures.failed },
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  await writeAllAtomically([
    ...(Object.keys(results) as CollectionName[]).map((name): [string, string] => [
      resolve(root, dataFiles[name]),
      json(results[name]),
    ]),
    [resolve(root, PICTURES_MANIFEST), json(pictures.manifest)],
    [resolve(root, REPORT_FILE), json(report)],
  ]);
  return Object.fromEntries(
    Object.entries(results).map(([name, documents]) => [name, Object.keys(documents).length]),
  ) as PullSummary;
}

/** Reads one collection from the server (never from cache) with its own client, within `timeoutMs`. */
async function readCollection(
  connect: () => FirestoreConnection,
  name: CollectionName,
  host: string,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<QuerySnapshot> {
  const started = performance.now();
  const connection = connect();
  try {
    const snapshot = await withTimeout(
      // FromServer: plain getDocs() answers an empty result from cache when the backend is unreachable.
      getDocsFromServer(collection(connection.db, name)),
      timeoutMs,
      `Firestore at ${host} did not answer within ${timeoutMs / 1000} s while reading "${name}".`,
    );
    const ms = Math.round(performance.now() - started);
    log(`${name.padEnd(12)} ${String(snapshot.size).padStart(6)} documents ${String(ms).padStart(7)} ms`);
    return snapshot;
  } catch (error) {
    if (error instanceof PullError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new PullError(`Cannot read "${name}" from Firestore at ${host}: ${reason}`);
  } finally {
    await connection.close();
  }
}

/** Writes every file to a temporary sibling first, then renames them all into place. */
async function writeAllAtomically(files: [path: string, text: string][]): Promise<void> {
  const temporary = files.map(([path]) => `${path}.${process.pid}.tmp`);
  try {
    for (const [index, [path, text]] of files.entries()) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary[index] as string, text, 'utf8');
    }
    for (const [index, [path]] of files.entries()) await rename(temporary[index] as string, path);
  } finally {
    await Promise.all(temporary.map((path) => rm(path, { force: true })));
  }
}
