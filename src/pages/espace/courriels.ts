/**
 * POST /espace/courriels (admin): « Réessayer » on a failed mail of /espace (field `id`): it goes back to the outbox's
 * queue for one more attempt, then back to /espace with the outcome (`?courriel=remis` or `?courriel=introuvable`).
 */
import type { APIRoute } from 'astro';
import { retryMail } from '../../features/espace/failed-mails.server';
import { readFormPost } from '../../features/espace/form-post.server';
import { failureResponse } from '../../features/espace/server-calls.server';
import { HttpError } from '../../lib/http';

export const prerender = false;

export const POST: APIRoute = async ({ locals, request, redirect }) => {
  try {
    const fields = await readFormPost(request);
    await retryMail(locals.espace, fields.get('id') ?? '');
    return redirect('/espace?courriel=remis#courriels-echec', 303);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) {
      return redirect('/espace?courriel=introuvable#courriels-echec', 303);
    }
    return failureResponse(error, '[espace/courriels]');
  }
};
