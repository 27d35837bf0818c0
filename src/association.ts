/**
 * The association's identity, in one place: its name and address come from the content (article `adresse`: titre,
 * intro's postal lines, contenu's contact lines), what its tax receipts add from document `association/site` (object,
 * registration numbers, signatory), else from the server's environment (ASSOCIATION_OBJECT, ASSOCIATION_SIGNATORY,
 * ASSOCIATION_REGISTRATION; see .env.example). The same document holds the page texts editors change in the space
 * ({@link siteTexts}). The header, the footer, the page titles, /soutenir, the Stripe product name (the donation
 * endpoints pass it) and the receipts read it here.
 *
 * Nothing of the demo association lives in src/: its identity is content/demo's, so a real database can never show
 * it. A database without `adresse` gives a site named {@link UNNAMED} with no address, and the pull reports it.
 */
import { getEntry } from 'astro:content';
import { ASSOCIATION_OBJECT, ASSOCIATION_REGISTRATION, ASSOCIATION_SIGNATORY, LEGAL_HOST } from 'astro:env/server';
import {
  ADDRESS_ARTICLE,
  ASSOCIATION_DOCUMENT,
  receiptLines,
  UNNAMED,
  type AssociationDocument,
} from './content-association';
import type { ReceiptIssuer } from './features/donations/receipts/receipt-pdf.server';
import { legalFacts, type LegalFacts } from './features/content/legal/legal-facts';
import { signatoryLine } from './features/donations/receipts/signatory';
import { memoizedPerBuild } from './lib/build-memo';
import { htmlToLines } from './lib/html.server';
import { contactLineText, firstEmail, parseContactLines, revealAt } from './lib/obfuscation';

/** Who the site is: `name`, postal `lines` and `contacts` (phones, emails, "Label : value"), as the footer shows. */
export type Association = Awaited<ReturnType<typeof association>>;

/**
 * The association's name and address from article `adresse`: titre ('[at]' revealed, spec §9), intro's postal lines,
 * contenu's contact lines with phones as tel: and emails as mailto:; without the article, {@link UNNAMED} and no lines.
 * Once per build (every page's header and footer).
 */
export const association = memoizedPerBuild(
  () => '',
  async () => {
    const entry = await getEntry('articles', ADDRESS_ARTICLE);
    return {
      name: (entry && revealAt(entry.data.titre).trim()) || UNNAMED,
      lines: parseContactLines(htmlToLines(entry?.data.intro ?? '')),
      contacts: parseContactLines(htmlToLines(entry?.data.contenu ?? '')),
    };
  },
);

/** The association's contact address (firstEmail: contacts, then postal lines) as a mailto: part; undefined if none. */
export async function contactEmail() {
  const info = await association();
  return firstEmail(info.contacts, info.lines);
}

/**
 * The page texts' defaults, used when document `association/site` or its field is missing or `''`: the texts the
 * templates held before editors could change them. Office hours have none (no sentence rather than another
 * association's hours).
 */
export const SITE_TEXT_DEFAULTS = {
  horaires: '',
  delaiReponse: 'Nous vous recontactons sous quinze jours.',
  soutenirDon:
    'Vos dons financent les AESH, le matériel adapté et les sorties de classe. L’association est d’intérêt général : ' +
    'votre don ouvre droit à une réduction d’impôt de 66 % de son montant (60 % pour une entreprise), et vous ' +
    'recevez votre reçu fiscal en ligne.',
  soutenirBenevolat:
    'Accompagner une sortie, réparer un meuble, tenir un stand à la fête de l’école : toutes les aides comptent.',
  soutenirMecenat: 'Entreprises et commerces du quartier : le mécénat ouvre droit à une réduction d’impôt de 60 %.',
} satisfies Partial<Record<keyof AssociationDocument, string>>;

/** A page text editors change in the space (document `association/site`). */
export type SiteTextName = keyof typeof SITE_TEXT_DEFAULTS;

/** The association's published document (all fields '' when the database has none). */
async function associationDocument(): Promise<Partial<AssociationDocument>> {
  return (await getEntry('association', ASSOCIATION_DOCUMENT))?.data ?? {};
}

/** The page texts, plain text (pages escape it): each the document's, else its {@link SITE_TEXT_DEFAULTS} entry. */
export async function siteTexts(): Promise<Record<SiteTextName, string>> {
  const document = await associationDocument();
  const names = Object.keys(SITE_TEXT_DEFAULTS) as SiteTextName[];
  return Object.fromEntries(names.map((name) => [name, document[name]?.trim() || SITE_TEXT_DEFAULTS[name]])) as Record<
    SiteTextName,
    string
  >;
}

/**
 * The issuer printed on a tax receipt (server only): name and postal lines from the content; the object as in the
 * statutes and the registration numbers from document `association/site`, each else from the environment ('' when
 * neither: the receipt shows « — » for the object and leaves the registration out); the signatory and the picture of
 * the signature as they are now in Firestore (receipts/signatory.server.ts readSignatory, which numbering reads too).
 * @throws what Firestore throws.
 */
export async function receiptIssuer(): Promise<ReceiptIssuer> {
  // Loaded here only: every page reads this module, the prerendered ones never need Firestore.
  const [{ readSignatory }, { adminFirestore }] = await Promise.all([
    import('./features/donations/receipts/signatory.server'),
    import('./lib/firebase-admin.server'),
  ]);
  const [{ name, lines }, document, signatory] = await Promise.all([
    association(),
    associationDocument(),
    readSignatory(adminFirestore(), ASSOCIATION_SIGNATORY ?? ''),
  ]);
  return {
    name,
    addressLines: lines.map(contactLineText),
    ...receiptLines(document, { object: ASSOCIATION_OBJECT, registration: ASSOCIATION_REGISTRATION }),
    signatory: signatory ? signatoryLine(signatory) : '',
    ...(signatory?.image ? { signature: signatory.image } : {}),
  };
}

/**
 * What the generated legal pages say of the association and its host: article `adresse`, the registration numbers
 * and publication director of document `association/site`, the LEGAL_HOST setting (else Netlify).
 */
export async function siteLegalFacts(): Promise<LegalFacts> {
  const [entry, document] = await Promise.all([getEntry('articles', ADDRESS_ARTICLE), associationDocument()]);
  return legalFacts(entry?.data, document, LEGAL_HOST);
}
