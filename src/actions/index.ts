/**
 * Every Astro Action of the site (https://docs.astro.build/en/guides/actions/): the staff space's forms, each defined
 * in its subject's folder with staffAction (src/features/espace/staff-action.server.ts).
 */
import { admissionsActions } from '../features/admissions/desk-actions.server';
import { categoryActions } from '../features/content/structure/category-actions.server';

export const server = {
  categories: categoryActions,
  admissions: admissionsActions,
};
