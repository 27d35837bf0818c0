/** The content's video hosts, for the policy of astro.config.mjs (docs/security.md). */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';
import { remoteOrigin } from './csp.ts';
import { sanitizeContentHtml } from './html.server.ts';

/**
 * Sorted origins of the <iframe>s (videos) the sanitiser keeps in `documents`; `schema` keys skipped (/ecole/schema's
 * own).
 */
export function contentFrameOrigins(documents: unknown[]): string[] {
  const frames = new Set<string>();
  const parser = new Parser({
    onopentag(name, attributes) {
      const origin = name === 'iframe' && attributes.src ? remoteOrigin(attributes.src) : undefined;
      if (origin) frames.add(origin);
    },
  });
  // The documents are JSON (the pull's files): JSON.stringify's replacer visits every nested value.
  JSON.stringify(documents, (key, value: unknown) => {
    if (key === 'schema') return undefined;
    if (typeof value === 'string' && /<iframe\b/i.test(value)) parser.write(sanitizeContentHtml(value));
    return value;
  });
  parser.end();
  return [...frames].sort();
}

/**
 * contentFrameOrigins of the pulled content (every `<dataDir>/*.json`, written just before `astro build`); none before
 * the first pull.
 */
export function pulledFrameOrigins(dataDir = 'src/data'): string[] {
  const files = existsSync(dataDir) ? readdirSync(dataDir).filter((file) => file.endsWith('.json')) : [];
  return contentFrameOrigins(
    files.flatMap((file) => Object.values(JSON.parse(readFileSync(join(dataDir, file), 'utf8')))),
  );
}
