/**
 * The association's identity, in one place: its name and address come from the content (article `adresse`: titre,
 * intro's postal lines, contenu's contact lines), what its tax receipts add from the server's environment
 * (ASSOCIATION_OBJECT, ASSOCIATION_SIGNATORY, ASSOCIATION_REGISTRATION; see .env.example). The header, the footer,
 * the page titles, /soutenir, the Stripe product name (the donation endpoints pass it) and the receipts read it here.
 *
 * Nothing of the demo association lives in src/: its identity is content/demo's, so a real database can never show
 * it. A database without `adresse` gives a site named {@link UNNAMED} with no address, and the pull reports it.
 */
import { getEntry } from 'astro:content';
import { ASSOCIATION_OBJECT, ASSOCIATION_REGISTRATION, ASSOCIATION_SIGNATORY } from 'astro:env/server';
import type { ReceiptIssuer } from './features/donations/receipt-pdf.server';
import { htmlToLines } from './lib/html.server';
import { contactLineText, parseContactLines, revealAt } from './lib/obfuscation';

/** The name shown when the database has no article `adresse`: neutral, never another association's. */
export const UNNAMED = 'L’association';

/** Who the site is: `name`, postal `lines` and `contacts` (phones, emails, "Label : value"), as the footer shows. */
export type Association = Awaited<ReturnType<typeof association>>;

/**
 * The association's name and address from article `adresse`: titre ('[at]' revealed, spec §9), intro's postal lines,
 * contenu's contact lines with phones as tel: and emails as mailto:; without the article, {@link UNNAMED} and no lines.
 */
export async function association() {
  const entry = await getEntry('articles', 'adresse');
  return {
    name: (entry && revealAt(entry.data.titre).trim()) || UNNAMED,
    lines: parseContactLines(htmlToLines(entry?.data.intro ?? '')),
    contacts: parseContactLines(htmlToLines(entry?.data.contenu ?? '')),
  };
}

/** The association's first email (contacts, then postal lines), as a mailto: part; undefined if none. */
export async function contactEmail() {
  const info = await association();
  return [...info.contacts, ...info.lines].flatMap((line) => line.parts).find((part) => part.kind === 'email');
}

/**
 * The issuer printed on a tax receipt (server only): name and postal lines from the content, the object as in the
 * statutes, the registration numbers and the signatory from the environment ('' when unset: the receipt shows « — »
 * for the object and leaves the others out; content/demo/association.env sets them for the demo).
 */
export async function receiptIssuer(): Promise<ReceiptIssuer> {
  const { name, lines } = await association();
  return {
    name,
    addressLines: lines.map(contactLineText),
    object: ASSOCIATION_OBJECT?.trim() ?? '',
    registration: ASSOCIATION_REGISTRATION?.trim() ?? '',
    signatory: ASSOCIATION_SIGNATORY?.trim() ?? '',
  };
}
