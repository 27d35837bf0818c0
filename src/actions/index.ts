/**
 * Every Astro Action of the site (https://docs.astro.build/en/guides/actions/): the staff space's forms, each defined
 * in its subject's folder with staffAction (src/features/espace/staff-action.server.ts).
 */
import { articleActions } from '../features/content/articles/article-actions.server';
import { categoryActions } from '../features/content/structure/category-actions.server';
import { publicationActions } from '../features/content/publishing/publication-actions.server';
import { letterActions } from '../features/newsletter/letter-actions.server';

export const server = {
  categories: categoryActions,
  articles: articleActions,
  publication: publicationActions,
  lettre: letterActions,
};
