/** The form of /espace/publication as an Astro Action (src/actions/index.ts): « Publier le site ». */
import * as z from 'zod';
import { staffAction } from '../../espace/staff-action.server';
import { publishSettings } from './article-publishing.server';
import { publicationQuery, publish } from './publish.server';

export const publicationActions = {
  /** Asks for a rebuild (publish, recorded) and returns its outcome as the page's query (`publication=…`). */
  publish: staffAction('publication', z.object({}), async (_input, { session }) =>
    publicationQuery(await publish(session, publishSettings())),
  ),
};
