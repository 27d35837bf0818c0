/**
 * The content pull, in steps: read every document of menus, categories,
 * articles and partenaires from Firestore; validate them (scripts/lib/validate.ts:
 * what cannot be shown is left out and reported); refuse when no meaningful
 * site remains; write the JSON Astro's `file()` loaders read and the report.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { collection, getDocsFromServer, type QuerySnapshot } from 'firebase/firestore';
import {
  dataFiles,
  firestoreSchemas,
  reportFile,
  type CollectionName,
  type ContentProblem,
  type ContentReport,
} from '../../src/content.config.ts';
import type { FirestoreConnection } from '../../src/lib/firestore.server.ts';
import { withDeadline } from '../../src/lib/http-error.server.ts';
import { collectPictureUses, pullPictures } from './pictures.ts';
import { validateCollection, type RawDocuments } from './validate.ts';

/** Raised when the pull cannot produce a meaningful site; nothing is written then. */
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

/** Validated content: published documents per collection, and the report. */
export interface PulledContent {
  data: Record<CollectionName, Record<string, unknown>>;
  report: ContentReport;
}

/** src → optimisable file (scripts/lib/pictures.ts), read by src/features/pictures/pictures.server.ts. */
export const PICTURES_MANIFEST = 'src/data/pictures.json';

/** Documents without which there is no meaningful site: [collection, id]. */
const REQUIRED_DOCUMENTS: [CollectionName, string][] = [
  ['menus', 'principal'],
  ['menus', 'pied'],
];

/**
 * Runs the pull (see module doc).
 * @returns the content report (also written to src/data/report.json).
 * @throws PullError naming the host when the database is unreachable or times
 *   out, and when menus/principal or menus/pied or every article is missing
 *   (or left out). Nothing is written then: the previous JSON stays as it was.
 */
export async function pullContent(options: PullOptions): Promise<ContentReport> {
  const { connect, host, root = process.cwd(), timeoutMs = 20_000, log = console.log, picturesCacheDir } = options;
  const raw = await readCollections(connect, host, timeoutMs, log);
  const content = validateContent(raw);
  assertPublishable(content, host);
  const pictures = await pullPictures(collectPictureUses(content.data), { root, log, cacheDir: picturesCacheDir });
  content.report.pictures = { fetched: pictures.fetched, failed: pictures.failed };
  await writeContent(root, content, pictures.manifest);
  return content.report;
}

/** Reads every collection of firestoreSchemas in parallel: name → [id, data]. */
export async function readCollections(
  connect: () => FirestoreConnection,
  host: string,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<Record<CollectionName, RawDocuments>> {
  const names = Object.keys(firestoreSchemas) as CollectionName[];
  const snapshots = await Promise.all(names.map((name) => readCollection(connect, name, host, timeoutMs, log)));
  return Object.fromEntries(
    names.map((name, index) => [
      name,
      (snapshots[index] as QuerySnapshot).docs.map((document): [string, unknown] => [document.id, document.data()]),
    ]),
  ) as Record<CollectionName, RawDocuments>;
}

/**
 * Validates every document (see scripts/lib/validate.ts) and builds the report;
 * a missing articles/adresse is reported (the footer then shows no address).
 * @param now seconds since the epoch for `generatedAt`.
 */
export function validateContent(
  raw: Record<CollectionName, RawDocuments>,
  now = Math.floor(Date.now() / 1000),
): PulledContent {
  const data = {} as PulledContent['data'];
  const report: ContentReport = {
    generatedAt: now,
    collections: {},
    problems: [],
    pictures: { fetched: 0, failed: [] },
  };
  for (const name of Object.keys(raw) as CollectionName[]) {
    const { documents, problems } = validateCollection(name, raw[name]);
    data[name] = documents;
    report.collections[name] = { read: raw[name].length, shown: Object.keys(documents).length };
    report.problems.push(...problems);
  }
  if (!raw.articles.some(([id]) => id === 'adresse')) {
    report.problems.push({
      collection: 'articles',
      id: 'adresse',
      field: '(document)',
      reason: 'l’article « adresse » n’existe pas : le pied de page et la page Contact n’affichent pas d’adresse',
      leftOut: 'document',
    });
  }
  return { data, report };
}

/**
 * Refuses content with no meaningful site: no menus/principal or menus/pied, no article.
 * @throws PullError listing what is missing and why (the report's problems for those documents).
 */
export function assertPublishable({ data, report }: PulledContent, host: string): void {
  const missing: string[] = [];
  const why = (name: string, id?: string) =>
    report.problems
      .filter((problem: ContentProblem) => problem.collection === name && (id === undefined || problem.id === id))
      .filter((problem) => problem.leftOut === 'document')
      .map((problem) => ` (left out: ${problem.id} ${problem.field} — ${problem.reason})`)
      .join('');
  for (const [name, id] of REQUIRED_DOCUMENTS) {
    if (!(id in data[name]))
      missing.push(`${name}/${id}: the document is missing on ${host}${why(name, id)}; the layout needs it.`);
  }
  if (Object.keys(data.articles).length === 0) {
    missing.push(
      `articles: no article can be published from ${host}${why('articles')}; refusing to publish an empty site.`,
    );
  }
  if (missing.length > 0) {
    throw new PullError(
      `No meaningful site can be built; nothing was written:\n  ${missing.join('\n  ')}\nFix the documents in Firestore (or the dataset in content/) and run the pull again.`,
    );
  }
}

/** Writes each collection's JSON, the pictures' manifest and the report, all or nothing. */
export async function writeContent(
  root: string,
  { data, report }: PulledContent,
  picturesManifest: unknown = {},
): Promise<void> {
  await writeAllAtomically([
    [resolve(root, PICTURES_MANIFEST), `${JSON.stringify(picturesManifest, null, 2)}\n`],
    ...(Object.keys(data) as CollectionName[]).map((name): [string, string] => [
      resolve(root, dataFiles[name]),
      `${JSON.stringify(data[name], null, 2)}\n`,
    ]),
    [resolve(root, reportFile), `${JSON.stringify(report, null, 2)}\n`],
  ]);
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
    // FromServer: plain getDocs() answers an empty result from cache when the backend is unreachable.
    const snapshot = await withDeadline(getDocsFromServer(collection(connection.db, name)), timeoutMs);
    const ms = Math.round(performance.now() - started);
    log(`${name.padEnd(12)} ${String(snapshot.size).padStart(6)} documents ${String(ms).padStart(7)} ms`);
    return snapshot;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      throw new PullError(`Firestore at ${host} did not answer within ${timeoutMs / 1000} s while reading "${name}".`);
    }
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
