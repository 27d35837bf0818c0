/**
 * The content pull: read and validate the collections, refuse a site without meaning, read the pictures, write all JSON
 * or nothing.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { collection, getDocsFromServer } from 'firebase/firestore';
import {
  dataFile,
  firestoreSchemas,
  type CollectionName,
  type ContentReport,
  LEGAL_PAGES,
  type LegalId,
} from '../../src/content.config.ts';
import type { FirestoreConnection } from '../../src/lib/firestore.server.ts';
import { withDeadline } from '../../src/lib/deadline.ts';
import { isDraft } from '../../src/lib/drafts.ts';
import { ADDRESS_ARTICLE, ASSOCIATION_DOCUMENT, type AssociationDocument } from '../../src/content-association.ts';
import { legalFacts, legalGaps } from '../../src/features/content/legal/legal-facts.ts';
import { collectPictureUses, pullPictures } from './pictures.ts';
import { validateDocument } from './validate.ts';

/**
 * Runs the pull (module doc) into `root` and returns its report (`timeoutMs` per collection); throws, writing nothing,
 * naming `host` when the database is unreachable or menus/principal, menus/pied or every article is missing.
 */
export async function pullContent(options: {
  connect: () => FirestoreConnection;
  host: string;
  root?: string;
  timeoutMs?: number;
  log?: (line: string) => void;
}): Promise<ContentReport> {
  const { connect, host, root = process.cwd(), timeoutMs = 20_000, log = console.log } = options;
  const names = Object.keys(firestoreSchemas) as CollectionName[];
  /** Reads one collection from the server (never from cache) within `timeoutMs`, then closes the client. */
  const readCollection = async (name: CollectionName): Promise<[CollectionName, [id: string, data: unknown][]]> => {
    // One client per collection, read in parallel: the embedded emulator answers one query per Listen stream.
    const connection = connect();
    const started = performance.now();
    try {
      // FromServer: plain getDocs() answers an empty result from cache when the backend is unreachable.
      const snapshot = await withDeadline(getDocsFromServer(collection(connection.db, name)), timeoutMs);
      const ms = Math.round(performance.now() - started);
      log(`${name.padEnd(12)} ${String(snapshot.size).padStart(6)} documents ${String(ms).padStart(7)} ms`);
      return [name, snapshot.docs.map((document) => [document.id, document.data()])];
    } catch (error) {
      throw new Error(
        error instanceof DOMException && error.name === 'TimeoutError'
          ? `Firestore at ${host} did not answer within ${timeoutMs / 1000} s while reading "${name}".`
          : `Cannot read "${name}" from Firestore at ${host}: ` +
              `${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    } finally {
      await connection.close();
    }
  };
  const read = Object.fromEntries(await Promise.all(names.map(readCollection)));
  const data = {} as Record<CollectionName, Record<string, unknown>>;
  const report: ContentReport = {
    generatedAt: Math.floor(Date.now() / 1000),
    collections: {},
    problems: [],
    pictures: { fetched: 0, failed: [] },
  };
  for (const name of names) {
    data[name] = {};
    let drafts = 0;
    for (const [id, raw] of read[name]) {
      // A draft saved from the space is never published, and is not a problem to report.
      if (isDraft(raw)) {
        drafts++;
        continue;
      }
      const { data: document, problems } = validateDocument(name, id, raw);
      if (document !== undefined) data[name][id] = document;
      report.problems.push(...problems);
    }
    report.collections[name] = {
      read: read[name].length,
      shown: Object.keys(data[name]).length,
      ...(drafts > 0 && { drafts }),
    };
  }
  if (!read.articles.some(([id]) => id === ADDRESS_ARTICLE)) {
    report.problems.push({
      collection: 'articles',
      id: ADDRESS_ARTICLE,
      field: '(document)',
      reason: 'l’article « adresse » n’existe pas : le pied de page et la page Contact n’affichent pas d’adresse',
      leftOut: 'document',
    });
  }
  report.legal = generatedLegalPages(data);
  assertPublishable(data, report, host);
  const pictures = await pullPictures(collectPictureUses(data), { root, log });
  report.pictures = { fetched: pictures.fetched, failed: pictures.failed };
  await writeAllAtomically(
    Object.entries({
      'src/data/pictures.json': pictures.manifest,
      ...Object.fromEntries(names.map((name) => [dataFile(name), data[name]])),
      'src/data/report.json': report,
    }).map(([path, value]) => [resolve(root, path), `${JSON.stringify(value, null, 2)}\n`]),
  );
  return report;
}

/**
 * The legal pages the site generates because their article is not published (missing, or left out as invalid), each
 * with what it lacks (legalGaps): the build publishes them and the editors read it in the report.
 */
function generatedLegalPages(data: Record<CollectionName, Record<string, unknown>>): ContentReport['legal'] {
  const facts = legalFacts(
    data.articles[ADDRESS_ARTICLE] as { titre: string; intro: string; contenu: string } | undefined,
    data.association[ASSOCIATION_DOCUMENT] as Partial<AssociationDocument> | undefined,
  );
  return (Object.keys(LEGAL_PAGES) as LegalId[])
    .filter((id) => !(id in data.articles))
    .map((page) => ({ page, missing: legalGaps(page, facts) }));
}

/**
 * @throws Error listing the missing documents (menus/principal, menus/pied, every article) and why they were left out.
 */
function assertPublishable(data: Record<CollectionName, object>, report: ContentReport, host: string): void {
  const why = (name: string, id?: string) =>
    report.problems
      .filter((left) => left.collection === name && (id ?? left.id) === left.id && left.leftOut === 'document')
      .map((left) => ` (left out: ${left.id} ${left.field} — ${left.reason})`)
      .join('');
  const missing = (['principal', 'pied'] as const)
    .filter((id) => !(id in data.menus))
    .map((id) => `menus/${id}: the document is missing on ${host}${why('menus', id)}; the layout needs it.`);
  if (Object.keys(data.articles).length === 0) {
    missing.push(
      `articles: no article can be published from ${host}${why('articles')}; refusing to publish an empty site.`,
    );
  }
  if (missing.length > 0) {
    throw new Error(
      `No meaningful site can be built; nothing was written:\n  ${missing.join('\n  ')}\nFix the documents in ` +
        `Firestore (or the dataset in content/) and run the pull again.`,
    );
  }
}

/** Writes every file to a temporary sibling first, then renames them all into place. */
async function writeAllAtomically(files: [path: string, text: string][]): Promise<void> {
  const temporary = (path: string) => `${path}.${process.pid}.tmp`;
  try {
    for (const [path, text] of files) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary(path), text, 'utf8');
    }
    for (const [path] of files) await rename(temporary(path), path);
  } finally {
    await Promise.all(files.map(([path]) => rm(temporary(path), { force: true })));
  }
}
