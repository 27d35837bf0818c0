/**
 * Which parts of a pulled document are left out alone when they fail validation (scripts/lib/validate.ts), per
 * collection of src/content.config.ts; a failure anywhere else leaves out the whole document.
 */
import type { CollectionName } from './content.config.ts';

const images: [RegExp, 'field'][] = [[/^(img|imgContenu|picto)(?![^.])/, 'field']];
/**
 * The parts of a document left out alone (one field or one link), matched on the start of an issue's dotted path; a
 * failure elsewhere leaves the document out.
 */
export const partsLeftOutAlone: Record<CollectionName, [RegExp, 'field' | 'link'][]> = {
  menus: [
    [/^liens\.\d+(\.children\.\d+)?\.(picto|ordre|target|ancre|exergue)(?![^.])/, 'field'],
    [/^liens\.\d+(\.children\.\d+)?(?![^.])/, 'link'],
    [/^schema(?![^.])/, 'field'],
  ],
  categories: [[/^articles(?![^.])/, 'field']],
  articles: images,
  partenaires: images,
  association: [[/^[a-zA-Z]+(?![^.])/, 'field']],
};
