/**
 * What the legal pages say of the association, read from the content: its name, postal and contact lines (article
 * `adresse`), its registration numbers and publication director (document `association/site`), the site's host
 * (Netlify unless the `LEGAL_HOST` setting names another); and what a generated legal page lacks, in French, for the
 * editors (the pull's report, /espace/publication, the build log). No astro:content here: the pull reads it too.
 */
import { htmlToLines } from '../../../lib/html.server.ts';
import { contactLineText, parseContactLines, revealAt } from '../../../lib/obfuscation.ts';

/**
 * The host as Netlify names itself for legal notices (its terms of use: Netlify, Inc., 101 2nd Street, San Francisco,
 * CA 94105, USA). LCEN art. 6, III, 1, d asks for the host's name, address and telephone: Netlify publishes none, so
 * its site stands for it.
 */
export const DEFAULT_HOST = 'Netlify, Inc., 101 2nd Street, San Francisco, CA 94105, États-Unis (www.netlify.com)';

/** The legal pages' facts: plain text, '' (or []) when the content has none. */
export interface LegalFacts {
  /** The association's name (article `adresse`'s titre), '' when the database has no such article. */
  name: string;
  /** Postal lines of the article `adresse`'s intro. */
  address: string[];
  /** Contact lines of its contenu (« Secrétariat : 04 78 12 34 56 »), '@' revealed. */
  contacts: string[];
  /** The first email of the contact (then postal) lines, '' when none. */
  email: string;
  /** True when a phone number or an email is among those lines. */
  reachable: boolean;
  /** Registration numbers (RNA, SIREN…) of `association/site`. */
  registration: string;
  /** The publication director (name and office) of `association/site` (LCEN art. 6, III, 1, c). */
  director: string;
  /** The host: name, address and where to reach it, one line. */
  host: string;
}

/**
 * The facts from the published article `adresse` (undefined when none), the association's published document (its
 * `enregistrement` and `directeurPublication`) and the `LEGAL_HOST` setting ('' or undefined: {@link DEFAULT_HOST}).
 */
export function legalFacts(
  adresse: { titre: string; intro: string; contenu: string } | undefined,
  document: { enregistrement?: string | undefined; directeurPublication?: string | undefined } | undefined,
  hostSetting?: string,
): LegalFacts {
  const address = parseContactLines(htmlToLines(adresse?.intro ?? ''));
  const contacts = parseContactLines(htmlToLines(adresse?.contenu ?? ''));
  const parts = [...contacts, ...address].flatMap((line) => line.parts);
  return {
    name: adresse ? revealAt(adresse.titre).trim() : '',
    address: address.map(contactLineText),
    contacts: contacts.map(contactLineText),
    email: parts.find((part) => part.kind === 'email')?.text ?? '',
    reachable: parts.some((part) => part.kind !== 'text'),
    registration: document?.enregistrement?.trim() ?? '',
    director: document?.directeurPublication?.trim() ?? '',
    host: hostSetting?.trim() || DEFAULT_HOST,
  };
}

/** Where each missing fact is written, in the editors' words. */
const WHERE = {
  adresse: 'dans l’espace, page « L’association et ses textes », partie « Nom et coordonnées »',
  document: 'dans l’espace, page « L’association et ses textes », partie « Reçus fiscaux et textes des pages »',
};

/**
 * What the generated page `page` lacks, one French phrase each (« le nom du directeur ou de la directrice de la
 * publication, que la loi exige (LCEN, article 6) : à écrire dans l’espace… »); [] when nothing required is missing.
 * The publisher's name and address and a way to reach it (LCEN art. 6, III, 1, b), the director (c) for the legal
 * notice; an email to exercise one's rights (GDPR art. 13.1.a) for the privacy page; a contact for the accessibility
 * statement's feedback.
 */
export function legalGaps(page: 'mentions' | 'rgpd' | 'accessibilite', facts: LegalFacts): string[] {
  const gaps: string[] = [];
  if (page === 'mentions' && !facts.name) {
    gaps.push(`le nom et l’adresse de l’association, que la loi exige (LCEN, article 6) : à écrire ${WHERE.adresse}`);
  } else if (page === 'mentions' && facts.address.length === 0) {
    gaps.push(`l’adresse du siège de l’association, que la loi exige (LCEN, article 6) : à écrire ${WHERE.adresse}`);
  }
  if (page === 'mentions' && !facts.reachable) {
    gaps.push(`un téléphone ou un email pour joindre l’association (LCEN, article 6) : à écrire ${WHERE.adresse}`);
  }
  if (page === 'mentions' && !facts.director) {
    gaps.push(
      'le nom du directeur ou de la directrice de la publication, que la loi exige (LCEN, article 6) : ' +
        `à écrire ${WHERE.document}`,
    );
  }
  if (page === 'rgpd' && !facts.email) {
    gaps.push(
      `un email où chacun peut exercer ses droits sur ses données (RGPD, article 13) : à écrire ${WHERE.adresse}`,
    );
  }
  if (page === 'accessibilite' && !facts.reachable) {
    gaps.push(`un téléphone ou un email pour signaler un défaut d’accessibilité : à écrire ${WHERE.adresse}`);
  }
  return gaps;
}
