/**
 * POST /api/rebuild — the rebuild webhook (issue 5): editors change Firestore,
 * then call it with `Authorization: Bearer <REBUILD_SECRET>`. On Netlify it
 * calls the build hook (NETLIFY_BUILD_HOOK_URL), once per minute at most;
 * under `npm start` it re-runs the pull so that the dev server shows the new
 * content. On demand (a Netlify Function); see src/lib/rebuild.server.ts for
 * the statuses, messages and concurrency guarantee, and the README, "Rebuilds".
 */
import type { APIRoute } from 'astro';
import type { EndpointContext } from '../../lib/endpoint.server';
import { handleRebuild, rebuildMethodNotAllowed, rebuildOptionsFromEnv } from '../../lib/rebuild.server';

export const prerender = false;

/** The rebuild request: 202 triggered / debounced / re-pulled, 401, 502 or 503 (JSON `{ok, message}`). */
export const POST = (({ request }: EndpointContext) =>
  handleRebuild(request, rebuildOptionsFromEnv())) satisfies APIRoute;
/** Any other method: 405 with `Allow: POST`. */
export const ALL = rebuildMethodNotAllowed satisfies APIRoute;
