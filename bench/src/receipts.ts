/**
 * The tax receipt PDF per script of the donor's name: its size (the fonts it embeds are subsets of the glyphs drawn)
 * and the time to draw it, the first time in the process (fonts read from disk) and then (median of the next runs);
 * and the size of the fonts the built Netlify function carries.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Timestamp } from 'firebase-admin/firestore';
import { receiptPdf, type ReceiptIssuer } from '../../src/features/donations/receipts/receipt-pdf.server.ts';
import type { ReceiptedGift } from '../../src/features/donations/ledger/gift.server.ts';

/** One script's receipt. */
export interface ReceiptMeasurement {
  script: string;
  name: string;
  /** Size of the PDF, in bytes. */
  bytes: number;
  /** The first receipt with this script in the process (its fonts read and parsed), in milliseconds. */
  firstMs: number;
  /** Median of the next runs, in milliseconds. */
  medianMs: number;
}

/** The receipts measured and the function's fonts (bytes, files; undefined when no build is there). */
export interface ReceiptsReport {
  receipts: ReceiptMeasurement[];
  functionFonts?: { bytes: number; files: number };
}

/** The names drawn, one per script (and mixed ones). */
export const RECEIPT_NAMES: [script: string, name: string][] = [
  ['Latin', 'Jeanne Dupont-Lefèvre'],
  ['Vietnamese', 'Nguyễn Thị Hà'],
  ['Greek', 'Γιώργος Παπαδόπουλος'],
  ['Cyrillic', 'Анна Иванова'],
  ['Arabic', 'محمد بن علي'],
  ['Hebrew', 'דוד כהן'],
  ['Chinese', '王芳'],
  ['Japanese', '山田 さくら'],
  ['Korean', '김민준'],
  ['Mixed (Latin + Arabic)', 'Ali محمد Dupont'],
  ['Mixed (five scripts)', 'Nguyễn Γιώργος Анна محمد 王芳'],
];

const ISSUER: ReceiptIssuer = {
  name: 'Association des Petits Pas',
  addressLines: ['12 rue des Tilleuls', '69007 Lyon'],
  object: 'Gérer une école primaire inclusive.',
  registration: 'RNA W691012345 · SIREN 812 345 678',
  signatory: 'Claire Martin, présidente',
};

const gift = (nom: string): ReceiptedGift => ({
  recu: '2026-00042',
  devise: 'eur',
  email: 'donateur@exemple.fr',
  statut: 'paid',
  nature: 'don',
  livemode: true,
  evenement: 'checkout.session.completed',
  session: 'cs_bench',
  abonnement: '',
  prenom: '',
  nom,
  adresse: '8 quai Rambaud',
  postal: '69002',
  ville: 'Lyon',
  pays: 'FR',
  montant: 2500,
  datePaiement: Timestamp.fromDate(new Date('2026-03-01T10:00:00Z')),
  date: Timestamp.fromDate(new Date('2026-03-01T10:05:00Z')),
});

/**
 * Draws each name's receipt once, then `runs` more times; `dir`: a project whose last build's function is measured.
 */
export async function measureReceipts(dir: string, runs = 15): Promise<ReceiptsReport> {
  const receipts: ReceiptMeasurement[] = [];
  for (const [script, name] of RECEIPT_NAMES) {
    let started = performance.now();
    const bytes = (await receiptPdf(ISSUER, gift(name))).length;
    const firstMs = performance.now() - started;
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      started = performance.now();
      await receiptPdf(ISSUER, gift(name));
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    receipts.push({ script, name, bytes, firstMs, medianMs: times[Math.floor(times.length / 2)] ?? firstMs });
  }
  const fonts = join(dir, '.netlify/v1/functions/ssr/node_modules/@fontsource');
  try {
    const files = (await readdir(fonts, { recursive: true })).filter((file) => file.endsWith('.woff'));
    let bytes = 0;
    for (const file of files) bytes += (await stat(join(fonts, file))).size;
    return { receipts, functionFonts: { bytes, files: files.length } };
  } catch {
    return { receipts };
  }
}
