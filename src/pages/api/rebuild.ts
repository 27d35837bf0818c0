/** POST /api/rebuild, on demand: publishing for scripts with REBUILD_SECRET (features/content/publishing/rebuild.server.ts). */
import type { APIRoute } from 'astro';
import { NETLIFY_BUILD_HOOK_URL, REBUILD_SECRET } from 'astro:env/server';
import type { EndpointContext } from '../../lib/endpoint.server';
import { devPullHook, handleRebuild, rebuildMethodNotAllowed } from '../../features/content/publishing/rebuild.server';

export const prerender = false;

// Under `npm start` a rebuild re-pulls through npm start's own hook (DEV_PULL_URL); builds drop this branch.
const pull = import.meta.env.DEV ? devPullHook(process.env.DEV_PULL_URL) : undefined;

/** JSON 202 / 401 / 502 / 503 (docs/rebuild.md). */
export const POST = (({ request }: EndpointContext) =>
  handleRebuild(request, { secret: REBUILD_SECRET, hookUrl: NETLIFY_BUILD_HOOK_URL, pull })) satisfies APIRoute;
/** Any other method: 405 with `Allow: POST`. */
export const ALL = rebuildMethodNotAllowed satisfies APIRoute;
