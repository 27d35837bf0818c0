/**
 * Seeds Firestore from `<dir>/<collection>.json` ({ id: data }); `{ "$timestamp": "<ISO 8601>" }` becomes a Timestamp.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Timestamp, doc, runTransaction, type Firestore } from 'firebase/firestore';
import { connectFirestore, type FirestoreTarget } from '../../src/lib/firestore.server.ts';

/** The committed demo dataset. */
export const DEMO_DIR = 'content/demo';

/** Replaces `{ $timestamp: iso }` markers by Timestamps, recursively; throws on an invalid date. */
export function reviveSeedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reviveSeedValue);
  if (!value || typeof value !== 'object') return value;
  const { $timestamp, ...rest } = value as Record<string, unknown>;
  if (typeof $timestamp === 'string' && Object.keys(rest).length === 0) {
    const millis = Date.parse($timestamp);
    if (Number.isNaN(millis)) throw new Error(`Invalid $timestamp "${$timestamp}"`);
    return Timestamp.fromMillis(millis);
  }
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, reviveSeedValue(inner)]));
}

/**
 * Writes `data` (collection → id → fields) in Commits of 400 documents (Firestore allows 500 writes; the embedded
 * emulator has no Write stream); returns the count.
 */
export async function seedDocuments(db: Firestore, data: Record<string, Record<string, unknown>>): Promise<number> {
  const writes = Object.entries(data).flatMap(([name, documents]) =>
    Object.entries(documents).map(([id, fields]) => [doc(db, name, id), reviveSeedValue(fields)] as const),
  );
  for (let start = 0; start < writes.length; start += 400) {
    await runTransaction(db, async (transaction) => {
      for (const [reference, fields] of writes.slice(start, start + 400)) transaction.set(reference, fields as object);
    });
  }
  return writes.length;
}

/** Reads every `*.json` of a directory as one collection each: collection → id → fields. */
export async function readSeedDirectory(dir: string): Promise<Record<string, Record<string, unknown>>> {
  const names = (await readdir(dir)).filter((entry) => entry.endsWith('.json')).sort();
  return Object.fromEntries(
    await Promise.all(
      names.map(async (name) => [basename(name, '.json'), JSON.parse(await readFile(join(dir, name), 'utf8'))]),
    ),
  );
}

/**
 * Seeds content/<CONTENT_DATASET or demo>/ into the emulator `target` as its owner (past the rules): [count, dir];
 * throws for an unknown dataset.
 */
export async function seedDataset(target: FirestoreTarget): Promise<[count: number, dir: string]> {
  const name = process.env.CONTENT_DATASET?.trim() || 'demo';
  const dir = `content/${name}`;
  if (!/^[a-z0-9-]+$/.test(name) || !existsSync(dir)) {
    throw new Error(`CONTENT_DATASET=${name}: no dataset ${dir}/ (try demo or original).`);
  }
  const connection = connectFirestore(target, { emulatorOwner: true });
  try {
    return [await seedDocuments(connection.db, await readSeedDirectory(dir)), dir];
  } finally {
    await connection.close();
  }
}
