/**
 * Every Astro Action of the site (https://docs.astro.build/en/guides/actions/): the staff space's forms, each defined
 * in its subject's folder with staffAction (src/features/espace/staff-action.server.ts).
 */
import { admissionsActions } from '../features/admissions/desk-actions.server';
import { rolesActions } from '../features/espace/roles-actions.server';
import { accountActions } from '../features/espace/account-actions.server';
import { donationActions } from '../features/donations/ledger/ledger-actions.server';
import { mailActions } from '../features/espace/failed-mails-actions.server';
import { articleActions } from '../features/content/articles/article-actions.server';
import { associationActions } from '../features/content/structure/association-actions.server';
import { menuActions } from '../features/content/structure/menu-actions.server';
import { partnerActions } from '../features/content/structure/partner-actions.server';
import { categoryActions } from '../features/content/structure/category-actions.server';
import { publicationActions } from '../features/content/publishing/publication-actions.server';
import { letterActions } from '../features/newsletter/letter-actions.server';

export const server = {
  categories: categoryActions,
  admissions: admissionsActions,
  roles: rolesActions,
  account: accountActions,
  donations: donationActions,
  mails: mailActions,
  articles: articleActions,
  publication: publicationActions,
  lettre: letterActions,
  association: associationActions,
  partners: partnerActions,
  menus: menuActions,
};
