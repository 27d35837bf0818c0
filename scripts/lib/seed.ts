/**
 * Seeds a Firestore database from JSON files in Firestore's shape (`<dir>/<collection>.json` = { id: data });
 * `{ "$timestamp": "<ISO 8601>" }` becomes a Timestamp, so demo data exercises the pull's date normalisation.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Timestamp, doc, runTransaction, type Firestore } from 'firebase/firestore';

/** Documents per transaction (Firestore allows 500 writes per commit). */
const BATCH = 400;

/** Replaces `{ $timestamp: iso }` markers by Timestamps, recursively. */
export function reviveSeedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reviveSeedValue);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.$timestamp === 'string' && Object.keys(record).length === 1) {
      const millis = Date.parse(record.$timestamp);
      if (Number.isNaN(millis)) throw new Error(`Invalid $timestamp "${record.$timestamp}"`);
      return Timestamp.fromMillis(millis);
    }
    return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, reviveSeedValue(inner)]));
  }
  return value;
}

/** Writes `data` (collection → id → fields) in Commits of up to 400 documents (the embedded emulator has no Write stream); returns the count. */
export async function seedDocuments(db: Firestore, data: Record<string, Record<string, unknown>>): Promise<number> {
  const writes: [string, string, Record<string, unknown>][] = [];
  for (const [name, documents] of Object.entries(data)) {
    for (const [id, fields] of Object.entries(documents)) {
      writes.push([name, id, reviveSeedValue(fields) as Record<string, unknown>]);
    }
  }
  for (let start = 0; start < writes.length; start += BATCH) {
    const slice = writes.slice(start, start + BATCH);
    await runTransaction(db, async (transaction) => {
      for (const [name, id, fields] of slice) transaction.set(doc(db, name, id), fields);
    });
  }
  return writes.length;
}

/** Reads every `*.json` of a directory as one collection each: collection → id → fields. */
export async function readSeedDirectory(dir: string): Promise<Record<string, Record<string, unknown>>> {
  const data: Record<string, Record<string, unknown>> = {};
  for (const name of (await readdir(dir)).filter((entry) => entry.endsWith('.json')).sort()) {
    data[basename(name, '.json')] = JSON.parse(await readFile(join(dir, name), 'utf8'));
  }
  return data;
}

/** The committed demo dataset. */
export const DEMO_DIR = 'content/demo';

/** The seeded dataset's directory, content/<CONTENT_DATASET or demo>/; throws when it is not a directory of content/. */
export function datasetDir(name = process.env.CONTENT_DATASET?.trim() || 'demo'): string {
  const dir = `content/${name}`;
  if (!/^[a-z0-9-]+$/.test(name) || !existsSync(dir)) {
    throw new Error(`CONTENT_DATASET=${name}: no dataset ${dir}/ (try demo or original).`);
  }
  return dir;
}
