/** The content's video hosts, for the policy of astro.config.mjs (docs/security.md). */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { contentFrameOrigins } from './csp.ts';
import { sanitizeContentHtml } from './html.server.ts';

/** Remote frame origins of the pulled content (every `<dataDir>/*.json`, written just before `astro build`); none before the first pull. */
export function pulledFrameOrigins(dataDir = 'src/data'): string[] {
  const files = existsSync(dataDir) ? readdirSync(dataDir).filter((file) => file.endsWith('.json')) : [];
  const documents = files.flatMap((file) =>
    Object.values(JSON.parse(readFileSync(join(dataDir, file), 'utf8')) as Record<string, unknown>),
  );
  return contentFrameOrigins(documents, sanitizeContentHtml);
}
