/**
 * The space's roles (Firebase Auth custom claim `roles`, an array) and its sections: who may open what. The one
 * table the guard (middleware), the navigation and the server modules read; no personal data for `edition`.
 */

/** Every role a staff account can hold, in the order pages list them. */
export const ROLES = ['admin', 'admissions', 'tresorerie', 'edition'] as const;

/** A staff role. */
export type Role = (typeof ROLES)[number];

/** Each role's French name and what it is for, as the roles page shows them. */
export const ROLE_LABELS: Record<Role, { name: string; description: string }> = {
  admin: {
    name: 'Administration',
    description: 'le bureau, qui voit tout, invite les personnes et tient le journal des accès',
  },
  admissions: { name: 'Admissions', description: 'les préinscriptions des enfants' },
  tresorerie: { name: 'Trésorerie', description: 'les dons et les reçus fiscaux' },
  edition: { name: 'Édition', description: 'le contenu du site, sans aucune donnée personnelle' },
};

/** True for a role name the space knows. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The known roles of a custom-claims object (`{ roles: [...] }`); anything else is ignored. */
export function rolesOfClaims(claims: Record<string, unknown> | undefined): Role[] {
  const roles = claims?.roles;
  return Array.isArray(roles) ? ROLES.filter((role) => roles.includes(role)) : [];
}

/**
 * A part of the space: its path, its title, the roles that open it (`admin` opens everything) and whether it holds
 * personal data (then each view and export is logged). `ready: false`: planned, not yet served (kept out of the menu).
 */
export interface Section {
  path: string;
  title: string;
  roles: readonly Role[];
  personalData: boolean;
  ready: boolean;
  /** false: actions without a page of their own, kept out of the menu. */
  menu?: boolean;
}

/** The sections, in menu order. `accueil` opens to every role (it shows each role only its own news). */
export const SECTIONS = {
  accueil: { path: '/espace', title: 'Accueil', roles: ROLES, personalData: false, ready: true },
  preinscriptions: {
    path: '/espace/preinscriptions',
    title: 'Préinscriptions',
    roles: ['admin', 'admissions'],
    personalData: true,
    ready: true,
  },
  lettre: {
    path: '/espace/lettre',
    title: 'Lettre d’information',
    roles: ['admin'],
    personalData: true,
    ready: true,
  },
  dons: { path: '/espace/dons', title: 'Dons', roles: ['admin', 'tresorerie'], personalData: true, ready: true },
  articles: {
    path: '/espace/articles',
    title: 'Articles',
    roles: ['admin', 'edition'],
    personalData: false,
    ready: true,
  },
  partenaires: {
    path: '/espace/partenaires',
    title: 'Partenaires',
    roles: ['admin', 'edition'],
    personalData: false,
    ready: true,
  },
  categories: {
    path: '/espace/categories',
    title: 'Rubriques',
    roles: ['admin', 'edition'],
    personalData: false,
    ready: true,
  },
  menus: { path: '/espace/menus', title: 'Menus', roles: ['admin', 'edition'], personalData: false, ready: true },
  association: {
    path: '/espace/association',
    title: 'L’association et ses textes',
    roles: ['admin', 'edition'],
    personalData: false,
    ready: true,
  },
  // Publishing the site (rebuild and its report): also the editing roles' check (src/features/content/editing/).
  publication: {
    path: '/espace/publication',
    title: 'Publier le site',
    roles: ['admin', 'edition'],
    personalData: false,
    ready: true,
  },
  roles: { path: '/espace/roles', title: 'Rôles', roles: ['admin'], personalData: false, ready: true },
  journal: { path: '/espace/journal', title: 'Journal des accès', roles: ['admin'], personalData: false, ready: true },
  // One's own account (choosing a password): every role, from the bar beside « Se déconnecter », not the menu.
  compte: { path: '/espace/compte', title: 'Mon compte', roles: ROLES, personalData: false, ready: true, menu: false },
  // The failed mails' « Réessayer » (an action of /espace, failed-mails-actions.server.ts): not in the menu.
  courriels: {
    path: '/espace/courriels',
    title: 'Courriels en échec',
    roles: ['admin'],
    personalData: false,
    ready: true,
    menu: false,
  },
} as const satisfies Record<string, Section>;

/** A section's key. */
export type SectionName = keyof typeof SECTIONS;

/** True when one of `roles` opens `section`. */
export function canOpen(roles: readonly Role[], section: SectionName): boolean {
  const allowed: readonly Role[] = SECTIONS[section].roles;
  return roles.some((role) => allowed.includes(role));
}

/** The section a path of the space belongs to (the longest matching prefix), or undefined outside the sections. */
export function sectionOfPath(pathname: string): SectionName | undefined {
  const path = pathname.replace(/\/+$/, '') || '/';
  let found: SectionName | undefined;
  for (const [name, section] of Object.entries(SECTIONS) as [SectionName, Section][]) {
    if (
      (path === section.path || path.startsWith(`${section.path}/`)) &&
      section.path.length >= (found ? SECTIONS[found].path.length : 0)
    ) {
      found = name;
    }
  }
  return found;
}

/** The ready sections `roles` opens, in menu order: the space's navigation. */
export function menuFor(roles: readonly Role[]): (Section & { name: SectionName })[] {
  return (Object.entries(SECTIONS) as [SectionName, Section][])
    .filter(([name, section]) => section.ready && section.menu !== false && canOpen(roles, name))
    .map(([name, section]) => ({ ...section, name }));
}
