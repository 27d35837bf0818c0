/**
 * The receipt PDF read back with unpdf (pdf.js): every script's name exactly as typed, in its structure element (a
 * tagged PDF/UA: language, title, structure tree in reading order, every text marked, the signature a figure with its
 * text alternative), the specimen marked; long texts wrap on the page.
 */
import { Timestamp } from 'firebase-admin/firestore';
import sharp from 'sharp';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import type { ReceiptedGift } from '../../src/features/donations/ledger/gift.server';
import {
  receiptPdf,
  SPECIMEN_TITLE,
  type ReceiptIssuer,
} from '../../src/features/donations/receipts/receipt-pdf.server';

const ISSUER: ReceiptIssuer = {
  name: 'Les Petits Pas Ensemble',
  addressLines: ['12 rue des Tilleuls', '69007 Lyon'],
  object: 'o',
  registration: '',
  signatory: '',
};

/** A paid one-off gift's `dons` document. */
const GIFT: ReceiptedGift = {
  recu: '2026-00042',
  devise: 'eur',
  email: 'jeanne@exemple.fr',
  statut: 'paid',
  nature: 'don',
  livemode: true,
  evenement: 'checkout.session.completed',
  session: 'cs_test_recu',
  abonnement: '',
  prenom: '',
  nom: 'Jeanne Dupont',
  adresse: '8 quai Rambaud',
  postal: '69002',
  ville: 'Lyon',
  pays: 'BE',
  montant: 1_000_000,
  datePaiement: Timestamp.fromDate(new Date('2026-03-01T10:00:00Z')),
  date: Timestamp.fromDate(new Date('2026-03-01T10:05:00Z')),
};

async function textOf(gift = GIFT, issuer = ISSUER): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(await receiptPdf(issuer, gift)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/**
 * The dictionaries of the PDF's objects of `/Type /type`, as text: pdfkit writes dictionaries uncompressed, one entry a
 * line (pdf.js does not give a page's tab order or the parent tree).
 */
function objects(bytes: Uint8Array, type: string): string[] {
  const raw = Buffer.from(bytes).toString('latin1');
  const dictionaries = [...raw.matchAll(/\d+ 0 obj\n<<\n([\s\S]*?)\n>>\n(?:endobj|stream)/g)].map((match) => match[1]!);
  return dictionaries.filter((dictionary) => dictionary.includes(`/Type /${type}\n`));
}

/** The document's information (pdf.js adds the catalog's `Language`) and its XMP packet, null when unreadable. */
async function metadataOf(bytes: Uint8Array) {
  const { info, metadata } = await (await getDocumentProxy(bytes.slice())).getMetadata();
  return { info: info as Record<string, unknown>, metadata: metadata as typeof metadata | null };
}

/** One leaf of the structure tree: its role, the roles above it, and the text of its marked content. */
interface TaggedText {
  role: string;
  path: string;
  text: string;
}

/**
 * The PDF's tagged texts in structure order (pdf.js's structure tree, its marked contents' text), and the text drawn
 * outside any marked content (which must be none).
 */
async function tagged(bytes: Uint8Array): Promise<{ texts: TaggedText[]; unmarked: string; artifacts: string }> {
  const pdf = await getDocumentProxy(bytes.slice());
  const byId = new Map<string, string>();
  let [unmarked, artifacts] = ['', ''];
  const texts: TaggedText[] = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const stack: string[] = [];
    for (const item of (await page.getTextContent({ includeMarkedContent: true })).items) {
      if ('str' in item) {
        const id = stack.at(-1);
        // pdf.js ends a line with a mark rather than the space drawn there.
        const str = item.str + (item.hasEOL ? '\n' : '');
        if (id === undefined) unmarked += str;
        else if (id === 'Artifact') artifacts += str;
        else byId.set(id, (byId.get(id) ?? '') + str);
      } else if (item.type === 'endMarkedContent') stack.pop();
      else stack.push(item.id ?? (item as { tag?: string }).tag ?? '');
    }
    // An element's marked contents (one per page it spans) make one text.
    const walk = (node: { role?: string; children?: unknown[]; id?: string }, path: string[]) => {
      const kids = (node.children ?? []) as (typeof node)[];
      const contents = kids.filter((kid) => kid.id !== undefined);
      if (contents.length > 0) {
        const text = contents.map((kid) => byId.get(kid.id as string) ?? '').join('');
        texts.push({ role: node.role ?? '', path: [...path, node.role].join('/'), text });
      }
      for (const kid of kids) if (kid.id === undefined) walk(kid, [...path, node.role ?? '']);
    };
    walk((await page.getStructTree()) as never, []);
  }
  // pdf.js also adds a space where a line jumps (from a label to its value): not part of what was drawn.
  const flat = (text: string) => text.replace(/\s+/g, ' ').trim();
  return {
    texts: texts.map((text) => ({ ...text, text: flat(text.text) })),
    unmarked: flat(unmarked),
    artifacts: flat(artifacts),
  };
}

/** The transformation matrix `m` then `ctm` (PDF's [a b c d e f] form). */
function multiply(m: number[], ctm: number[]): number[] {
  const [a, b, c, d, e, f] = m as [number, number, number, number, number, number];
  const [A, B, C, D, E, F] = ctm as [number, number, number, number, number, number];
  return [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
}

/** The value of the field `label`, read from the structure: the TD after the TH of that text. */
function field(texts: TaggedText[], label: string): string | undefined {
  const at = texts.findIndex((text) => text.path.endsWith('/TH/P') && text.text === label);
  return at < 0 ? undefined : texts[at + 1]?.text;
}

describe('receipt PDF', () => {
  it.each([
    ['Latin', 'Jeanne Dupont-Lefèvre'],
    ['Vietnamese', 'Nguyễn Thị Hà'],
    ['Greek', 'Γιώργος Παπαδόπουλος'],
    ['Cyrillic', 'Анна Иванова'],
    ['Arabic', 'محمد بن علي'],
    ['Arabic with lam-alef', 'سلام عبد الله'],
    ['Hebrew', 'דוד כהן'],
    ['Chinese', '王芳'],
    ['Japanese', '山田 さくら'],
    ['Korean', '김민준'],
    ['Latin and Arabic', 'Ali محمد Dupont'],
    ['Hebrew between Latin', 'Sarah כהן-Lévy'],
  ])('prints a %s name as typed: its text reads back the same', async (_script, nom) => {
    const bytes = await receiptPdf(ISSUER, { ...GIFT, nom });
    const { texts } = await tagged(bytes);
    expect(field(texts, 'Nom et prénom')).toBe(nom);
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    expect(text.split('\n')).toContain(`Nom et prénom ${nom}`);
  });

  it('replaces what no font draws: no emoji, « ? » for an ideograph outside the fonts', async () => {
    const { texts } = await tagged(await receiptPdf(ISSUER, { ...GIFT, nom: 'Łukasz😀 Ōta 𪛖 Zoë' }));
    expect(field(texts, 'Nom et prénom')).toBe('Łukasz Ōta ? Zoë');
  });

  it('is tagged PDF/UA: French, titled, marked, each text in reading order in the structure or an artifact', async () => {
    const bytes = await receiptPdf(ISSUER, GIFT);
    const pdf = await getDocumentProxy(bytes.slice());
    const { info, metadata } = await metadataOf(bytes);
    expect(info.Language).toBe('fr-FR');
    expect(info.Title).toBe('Reçu fiscal n° 2026-00042 — Les Petits Pas Ensemble');
    expect(await pdf.getMarkInfo()).toMatchObject({ Marked: true });
    expect(await pdf.getViewerPreferences()).toMatchObject({ DisplayDocTitle: true });
    expect(metadata?.get('dc:title')).toBe('Reçu fiscal n° 2026-00042 — Les Petits Pas Ensemble');
    const xmp = metadata?.getRaw();
    expect(xmp).toContain('<dc:language><rdf:Bag><rdf:li>fr-FR</rdf:li></rdf:Bag></dc:language>');
    expect(xmp).toContain('<pdfuaid:part>1</pdfuaid:part>');
    const [catalog] = objects(bytes, 'Catalog');
    expect(catalog).toMatch(/\/StructTreeRoot \d+ 0 R/);
    const [tree] = objects(bytes, 'StructTreeRoot');
    // One parent-tree entry per page: the structure elements owning its marked contents, by MCID.
    expect(tree).toMatch(/\/ParentTree <<[\s\S]*\/Nums \[\s*0 \[(\d+ 0 R ?)+\]/);
    expect(objects(bytes, 'Page')).toEqual([expect.stringMatching(/\/StructParents 0\n\/Tabs \/S$/)]);

    const { texts, unmarked } = await tagged(bytes);
    expect(unmarked).toBe('');
    expect(texts.slice(0, 6).map(({ role, text }) => [role, text])).toEqual([
      ['H1', 'Reçu au titre des dons à certains organismes d’intérêt général'],
      ['P', 'Articles 200, 238 bis et 978 du code général des impôts (CGI) — modèle CERFA n° 11580'],
      ['P', 'Reçu n° 2026-00042'],
      ['H2', 'Bénéficiaire des versements'],
      ['P', 'Nom ou dénomination'],
      ['P', 'Les Petits Pas Ensemble'],
    ]);
    expect(texts[4].path).toBe('Root/Document/Sect/Table/TR/TH/P');
    expect(texts[5].path).toBe('Root/Document/Sect/Table/TR/TD/P');
    expect(texts.filter(({ role }) => role === 'H2').map(({ text }) => text)).toEqual([
      'Bénéficiaire des versements',
      'Donateur',
      'Versement',
    ]);
    expect(field(texts, 'Adresse')).toBe('12 rue des Tilleuls, 69007 Lyon');
    expect(texts.at(-1)).toMatchObject({ role: 'P', text: 'Pour l’association' });
  });

  it('keeps a name with « & » and « < » as typed in the title and in the XML metadata', async () => {
    const name = 'Parents & Enfants <Lyon>';
    const bytes = await receiptPdf({ ...ISSUER, name }, GIFT);
    const { info, metadata } = await metadataOf(bytes);
    expect(info.Title).toBe(`Reçu fiscal n° 2026-00042 — ${name}`);
    expect(metadata?.get('dc:title')).toBe(`Reçu fiscal n° 2026-00042 — ${name}`);
    expect(metadata?.get('dc:creator')).toEqual([name]);
  });

  it('prints the signature above the signatory’s name and quality, as a figure with its text alternative', async () => {
    // A 60 × 20 PNG, as signature-image.server.ts stores one.
    const png = await sharp({ create: { width: 60, height: 20, channels: 4, background: '#1a2a3aff' } })
      .png()
      .toBuffer();
    const issuer = {
      ...ISSUER,
      signatory: 'Claire Martin, présidente',
      signature: { type: 'image/png' as const, bytes: new Uint8Array(png) },
    };
    const bytes = await receiptPdf(issuer, GIFT);
    const { texts } = await tagged(bytes);
    expect(texts.slice(-4).map(({ role, text }) => [role, text])).toEqual([
      ['P', 'Fait le 1er mars 2026'],
      ['P', 'Pour l’association :'],
      ['Figure', ''],
      ['P', 'Claire Martin, présidente'],
    ]);
    const pdf = await getDocumentProxy(bytes.slice());
    const page = await pdf.getPage(1);
    const { fnArray, argsArray } = await page.getOperatorList();
    const { OPS } = await import('unpdf/pdfjs').then((module) => module as unknown as { OPS: Record<string, number> });
    const images = fnArray.flatMap((op, index) => (op === OPS.paintImageXObject ? [argsArray[index]] : []));
    expect(images).toHaveLength(1);
    // Above the name: the image's bottom (its transform's y) over the name's baseline.
    const structure = await page.getStructTree();
    expect(JSON.stringify(structure)).toMatch(
      /"role":"Figure",[^}]*\}\],"alt":"Signature de Claire Martin, présidente"/,
    );
    const content = await page.getTextContent();
    const name = content.items.find((item) => 'str' in item && item.str === 'Claire Martin, présidente');
    // The picture fills the unit square of the transformation in force when it is painted: its lowest corner on the
    // page is its bottom.
    const painted = fnArray.indexOf(OPS.paintImageXObject);
    let ctm = [1, 0, 0, 1, 0, 0];
    const saved: number[][] = [];
    for (const [index, op] of fnArray.slice(0, painted).entries()) {
      if (op === OPS.save) saved.push(ctm);
      else if (op === OPS.restore) ctm = saved.pop() ?? ctm;
      else if (op === OPS.transform) ctm = multiply(argsArray[index] as number[], ctm);
    }
    const [, b, , d, , f] = ctm as [number, number, number, number, number, number];
    const imageBottom = Math.min(f, b + f, d + f, b + d + f);
    expect(imageBottom).toBeGreaterThan((name as { transform: number[] }).transform[5]!);

    const unsigned = await receiptPdf({ ...issuer, signatory: '', signature: undefined }, GIFT);
    expect(
      (await (await getDocumentProxy(unsigned)).getPage(1).then((p) => p.getOperatorList())).fnArray,
    ).not.toContain(OPS.paintImageXObject);
  });

  it('marks a specimen: its title, banner and watermark (artifacts), no tax receipt in its structure', async () => {
    const bytes = await receiptPdf(ISSUER, { ...GIFT, livemode: false, recu: 'TEST-2026-3f9a1c0b7e2d' });
    const { texts, unmarked, artifacts } = await tagged(bytes);
    expect(unmarked).toBe('');
    expect(artifacts).toBe(`SPÉCIMEN ${SPECIMEN_TITLE}`);
    expect(texts[0]).toMatchObject({ role: 'H1', text: SPECIMEN_TITLE });
    expect(texts[2]).toMatchObject({ role: 'P', text: 'Spécimen n° TEST-2026-3f9a1c0b7e2d' });
    const all = texts.map(({ text }) => text).join(' ');
    for (const claim of ['Reçu au titre des dons', 'CERFA', 'article 200', '66 %']) expect(all).not.toContain(claim);
    expect((await metadataOf(bytes)).info.Title).toBe(`${SPECIMEN_TITLE} — n° TEST-2026-3f9a1c0b7e2d`);
  });

  it('gives the same bytes for the same gift', async () => {
    expect(Buffer.from(await receiptPdf(ISSUER, GIFT)).equals(Buffer.from(await receiptPdf(ISSUER, GIFT)))).toBe(true);
  });

  it('prints the registration numbers under the object when they are set, and no such line otherwise', async () => {
    const registration = 'RNA W691012345 · SIREN 812 345 678';
    expect(await textOf(GIFT, { ...ISSUER, registration })).toContain(
      `Objet o Numéros d’enregistrement ${registration} Qualité`,
    );
    expect(await textOf()).not.toContain('Numéros d’enregistrement');
  });

  it('writes large amounts in figures and words, without a signatory line when none is set', async () => {
    const text = await textOf();
    expect(text).toContain('8 quai Rambaud, 69002 Lyon, Belgique');
    expect(text).toContain('10 000,00 €');
    expect(text).toContain('dix mille euros');
    expect(text).toContain('soit 6 600 €');
    expect(text).toContain('1er mars 2026');
    expect(text).toContain('Pour l’association');
    expect(text).not.toContain('Pour l’association :');
  });

  it.each([
    [2500, 'vingt-cinq euros'],
    [8000, 'quatre-vingts euros'],
    [2550, 'vingt-cinq euros et cinquante centimes'],
  ])('writes %i cents in French words', async (montant, words) => {
    expect(await textOf({ ...GIFT, montant })).toContain(`Somme en toutes lettres ${words}`);
  });

  it('wraps a long object inside the page instead of cutting it', async () => {
    const object = `${'Une école inclusive pour tous les enfants du quartier, '.repeat(8)}fin de l’objet.`;
    const text = await textOf(GIFT, { ...ISSUER, object });
    expect(text).toContain('fin de l’objet.');
  });

  it('goes on to further pages, still tagged, when the text does not fit on one', async () => {
    const object = `${'Une école inclusive pour tous les enfants du quartier, '.repeat(90)}fin de l’objet.`;
    const bytes = await receiptPdf({ ...ISSUER, object }, GIFT);
    expect((await getDocumentProxy(bytes.slice())).numPages).toBeGreaterThan(1);
    const { texts, unmarked } = await tagged(bytes);
    expect(unmarked).toBe('');
    // pdf.js gives each page's part of the structure: the object's value is a TD on two pages.
    const values = texts.filter(({ path }) => path.endsWith('/TD/P')).map(({ text }) => text);
    expect(values.join(' ')).toContain(object);
    expect(texts.at(-1)).toMatchObject({ role: 'P', text: 'Pour l’association' });
  });
});
