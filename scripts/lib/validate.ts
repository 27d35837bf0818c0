/**
 * Validation of the pulled documents with content.config.ts's schemas: what fails is left out (per `partsLeftOutAlone`)
 * and reported.
 */
import type * as z from 'zod';
import {
  firestoreSchemas,
  partsLeftOutAlone,
  type CollectionName,
  type ContentProblem,
} from '../../src/content.config.ts';
import { refusedLinks } from '../../src/lib/html.server.ts';
import { LINK_REFUSED, quotedLinkAddress } from '../../src/lib/link-address.ts';

/** Rounds of "leave out the failing parts, validate again" before giving up on a document. */
const MAX_ROUNDS = 8;

/** A received value for an editor, in French: « le nombre 12 », « rien ». */
function describe(value: unknown): string {
  if (value == null) return 'rien';
  if (Array.isArray(value)) return 'une liste';
  if (typeof value === 'string') return `le texte « ${value.length > 40 ? `${value.slice(0, 40)}…` : value} »`;
  if (typeof value === 'number') return `le nombre ${value}`;
  return typeof value === 'boolean' ? `la valeur ${value}` : 'un objet';
}

/** Reason of an issue no schema message covers (the schemas name the usual ones). */
const fallbackReason = (issue: z.core.$ZodRawIssue) =>
  `le champ « ${(issue.path ?? []).join('.') || 'document'} » n’a pas la forme attendue (reçu : ` +
  `${describe(issue.input)})`;

const valueAt = (data: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | null)?.[key], data);

/** A copy of `data` without the value at `path` (a list element is removed, an object key deleted). */
function without(data: unknown, [key, ...rest]: readonly PropertyKey[]): unknown {
  if (Array.isArray(data)) {
    return rest.length === 0
      ? data.filter((_, index) => index !== key)
      : data.map((item, index) => (index === key ? without(item, rest) : item));
  }
  const copy = { ...(data as Record<PropertyKey, unknown>) };
  if (rest.length === 0) delete copy[key as PropertyKey];
  else copy[key as PropertyKey] = without(copy[key as PropertyKey], rest);
  return copy;
}

/** The non-empty titre closest to `path`: the link's, else the document's. */
function titreNear(data: unknown, path: readonly PropertyKey[]): string | undefined {
  for (let length = path.length; length >= 0; length--) {
    const titre = valueAt(data, [...path.slice(0, length), 'titre']);
    if (typeof titre === 'string' && titre.trim()) return titre.trim();
  }
  return undefined;
}

/**
 * One problem per link of `intro`/`contenu` that safeLinkAddress refuses: the build's sanitiser drops its address (the
 * text stays), and the report says so.
 */
function richTextLinkProblems(data: unknown): Omit<ContentProblem, 'collection' | 'id'>[] {
  const fields = data as { titre?: unknown; intro?: unknown; contenu?: unknown };
  const titre = typeof fields.titre === 'string' && fields.titre.trim() ? { titre: fields.titre.trim() } : {};
  return (['intro', 'contenu'] as const).flatMap((field) =>
    typeof fields[field] === 'string'
      ? refusedLinks(fields[field]).map((href) => ({
          ...titre,
          field: `${field} (<a>)`,
          reason: `l’adresse du lien « ${quotedLinkAddress(href)} » ${LINK_REFUSED}`,
          leftOut: 'link' as const,
        }))
      : [],
  );
}

/**
 * Validates one document, leaving out failing parts and retrying (MAX_ROUNDS): its published data (undefined when left
 * out) and problems.
 */
export function validateDocument(
  name: CollectionName,
  id: string,
  raw: unknown,
): { data: unknown; problems: ContentProblem[] } {
  const problems: ContentProblem[] = [];
  const problem = (path: PropertyKey[], leftOut: ContentProblem['leftOut'], reason: string, titre?: string) => {
    const field = path.join('.') || '(document)';
    return { collection: name, id, ...(titre && { titre }), field, reason, leftOut } satisfies ContentProblem;
  };
  let current = raw;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const parsed = firestoreSchemas[name].safeParse(current, { error: fallbackReason });
    if (parsed.success) {
      const links = richTextLinkProblems(parsed.data).map((link) => ({ collection: name, id, ...link }));
      return { data: parsed.data, problems: [...problems, ...links] };
    }
    const parts = parsed.error.issues.map((issue) => {
      const dotted = issue.path.join('.');
      const rule = partsLeftOutAlone[name].find(([pattern]) => pattern.test(dotted));
      const length = rule ? (rule[0].exec(dotted) as RegExpExecArray)[0].split('.').length : 0;
      return { issue, path: issue.path.slice(0, length), leftOut: rule?.[1] ?? ('document' as const) };
    });
    const fatal = parts.find((part) => part.leftOut === 'document');
    if (fatal || round === MAX_ROUNDS - 1) {
      const { issue } = fatal ?? parts[0]!;
      problems.push(problem(issue.path, 'document', issue.message, titreNear(current, [])));
      return { data: undefined, problems };
    }
    // Later list elements go first, so that earlier indexes stay right.
    const found = new Map<string, ContentProblem>();
    for (const part of parts.toReversed()) {
      const key = part.path.join('.');
      if (found.has(key)) continue;
      const titre = titreNear(current, part.leftOut === 'link' ? part.path : part.path.slice(0, -1));
      found.set(key, problem(part.issue.path, part.leftOut, part.issue.message, titre));
      current = without(current, part.path);
    }
    problems.push(...[...found.values()].toReversed());
  }
  return { data: undefined, problems };
}
