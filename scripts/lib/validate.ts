/**
 * Validation of the pulled documents with src/content.config.ts's schemas, as editors' data: what still
 * fails is left out (a field, a link or the document, per `partsLeftOutAlone`) and reported in French.
 */
import type { z } from 'astro/zod';
import {
  firestoreSchemas,
  partsLeftOutAlone,
  type CollectionName,
  type ContentProblem,
  type LeftOut,
} from '../../src/content.config.ts';

/** Documents of one collection as read: [id, Firestore data]. */
export type RawDocuments = [id: string, data: unknown][];

/** The outcome of validating one collection: published documents (id → data) and the problems met. */
export interface ValidatedCollection {
  documents: Record<string, unknown>;
  problems: ContentProblem[];
}

/** Rounds of "leave out the failing parts, validate again" before giving up on a document. */
const MAX_ROUNDS = 8;

/** Describes a received value to an editor, in French: « le nombre 12 », « rien ». */
function describe(value: unknown): string {
  if (value === undefined || value === null) return 'rien';
  if (Array.isArray(value)) return 'une liste';
  if (typeof value === 'string') return `le texte « ${value.length > 40 ? `${value.slice(0, 40)}…` : value} »`;
  if (typeof value === 'number') return `le nombre ${value}`;
  if (typeof value === 'boolean') return `la valeur ${value}`;
  return 'un objet';
}

/** Reason of an issue no schema message covers (the schemas name the usual ones). */
const fallbackReason = (issue: z.core.$ZodRawIssue) =>
  `le champ « ${(issue.path ?? []).map(String).join('.') || 'document'} » n’a pas la forme attendue (reçu : ${describe(issue.input)})`;

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = data;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The rule of partsLeftOutAlone matching the start of `path`: the part's path and what it is. */
function partOf(name: CollectionName, path: readonly PropertyKey[]): { path: PropertyKey[]; leftOut: LeftOut } {
  for (const [pattern, leftOut] of partsLeftOutAlone[name]) {
    const segments = pattern.split('.');
    if (segments.length > path.length) continue;
    const matches = segments.every((segment, index) =>
      segment === '*' ? typeof path[index] === 'number' : segment === String(path[index]),
    );
    if (matches) return { path: path.slice(0, segments.length), leftOut };
  }
  return { path: [], leftOut: 'document' };
}

/** A copy of `data` without the value at `path` (a list element is removed, an object key deleted). */
function without(data: unknown, path: readonly PropertyKey[]): unknown {
  const [key, ...rest] = path;
  if (key === undefined || data === null || typeof data !== 'object') return data;
  if (Array.isArray(data)) {
    return rest.length === 0
      ? data.filter((_, index) => index !== key)
      : data.map((item, index) => (index === key ? without(item, rest) : item));
  }
  const copy: Record<PropertyKey, unknown> = { ...(data as Record<PropertyKey, unknown>) };
  if (rest.length === 0) delete copy[key];
  else copy[key] = without(copy[key], rest);
  return copy;
}

/** The titre closest to `path` (the link's, else the document's), when it is a non-empty text. */
function titreNear(data: unknown, path: readonly PropertyKey[]): string | undefined {
  for (let length = path.length; length >= 0; length--) {
    const titre = valueAt(data, [...path.slice(0, length), 'titre']);
    if (typeof titre === 'string' && titre.trim()) return titre.trim();
  }
  return undefined;
}

/** Validates one document, leaving out failing parts and retrying (MAX_ROUNDS): its published data (undefined when left out) and problems. */
export function validateDocument(
  name: CollectionName,
  id: string,
  raw: unknown,
): { data: unknown; problems: ContentProblem[] } {
  const problems: ContentProblem[] = [];
  let current = raw;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const parsed = firestoreSchemas[name].safeParse(current, { error: fallbackReason });
    if (parsed.success) return { data: parsed.data, problems };
    const parts = parsed.error.issues.map((issue) => ({ issue, ...partOf(name, issue.path) }));
    const fatal = parts.find((part) => part.leftOut === 'document');
    if (fatal || round === MAX_ROUNDS - 1) {
      const { issue } = fatal ?? (parts[0] as (typeof parts)[number]);
      problems.push(problem(name, id, issue.path, 'document', issue.message, titreNear(current, [])));
      return { data: undefined, problems };
    }
    // Remove later list elements first, so that earlier indexes stay right.
    const seen = new Set<string>();
    const found: ContentProblem[] = [];
    for (const part of parts.toReversed()) {
      const key = part.path.map(String).join('.');
      if (seen.has(key)) continue;
      seen.add(key);
      const titre = titreNear(current, part.leftOut === 'link' ? part.path : part.path.slice(0, -1));
      found.unshift(problem(name, id, part.issue.path, part.leftOut, part.issue.message, titre));
      current = without(current, part.path);
    }
    problems.push(...found);
  }
  return { data: undefined, problems };
}

function problem(
  collection: CollectionName,
  id: string,
  path: readonly PropertyKey[],
  leftOut: LeftOut,
  reason: string,
  titre: string | undefined,
): ContentProblem {
  return {
    collection,
    id,
    ...(titre ? { titre } : {}),
    field: path.map(String).join('.') || '(document)',
    reason,
    leftOut,
  };
}

/** Validates every document of a collection (see validateDocument). */
export function validateCollection(name: CollectionName, raw: RawDocuments): ValidatedCollection {
  const documents: Record<string, unknown> = {};
  const problems: ContentProblem[] = [];
  for (const [id, data] of raw) {
    const result = validateDocument(name, id, data);
    if (result.data !== undefined) documents[id] = result.data;
    problems.push(...result.problems);
  }
  return { documents, problems };
}
