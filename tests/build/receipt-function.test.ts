/**
 * The built Netlify function carries the receipt's fonts: copied away from the project (so that nothing resolves from
 * its node_modules, as on Netlify), its receipt module draws a name in every script, which reads back as typed; the
 * function holds the .woff slices the receipt uses and nothing else of the font packages.
 */
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, describe, expect, it } from 'vitest';

const functionDir = join(import.meta.dirname, '../../.netlify/v1/functions/ssr');
const copies: string[] = [];
afterAll(() => Promise.all(copies.map((dir) => rm(dir, { recursive: true, force: true }))));

/** receiptPdf's shape, as the test calls it. */
type Receipt = (issuer: object, gift: object) => Promise<Uint8Array>;

/** A firebase-admin Timestamp as the receipt reads it (seconds and toDate). */
const at = (iso: string) => ({ seconds: Date.parse(iso) / 1000, toDate: () => new Date(iso) });

describe('the receipt in the built function', () => {
  it('draws every script from the fonts inside the function, copied away from the project', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'receipt-function-'));
    copies.push(copy);
    await cp(functionDir, copy, { recursive: true });
    const chunks = join(copy, '.netlify/build/chunks');
    const file = (await readdir(chunks)).find((name) => name.startsWith('receipt-pdf.server_'));
    expect(file).toBeDefined();
    const source = await readFile(join(chunks, file as string), 'utf8');
    const alias = /\breceiptPdf as (\w+)/.exec(source)?.[1] as string;
    const module = (await import(pathToFileURL(join(chunks, file as string)).href)) as Record<string, Receipt>;
    const nom = 'Nguyễn Thị Hà Γιώργος Анна محمد بن علي 王芳 דוד כהן';
    const gift = {
      recu: '2026-00042',
      livemode: true,
      prenom: '',
      nom,
      adresse: '',
      postal: '',
      ville: '',
      pays: 'FR',
    };
    const dates = { montant: 2500, datePaiement: at('2026-03-01T10:00:00Z'), date: at('2026-03-01T10:05:00Z') };
    const issuer = { name: 'A', addressLines: [], object: '', registration: '', signatory: '' };
    const bytes = await module[alias](issuer, { ...gift, ...dates });
    const { text } = await extractText(await getDocumentProxy(bytes), { mergePages: true });
    expect(text.split('\n')).toContain(`Nom et prénom ${nom}`);
  });

  it('holds only the .woff slices used (regular, bold for Latin, Arabic and Hebrew), no woff2', async () => {
    const fonts = join(functionDir, 'node_modules/@fontsource');
    const files = (await readdir(fonts, { recursive: true })).filter((name) => /\.woff2?$/.test(name));
    expect(files.filter((name) => !/-(400|700)-normal\.woff$/.test(name))).toEqual([]);
    expect(files.filter((name) => /noto-sans-(sc|jp|kr)-.*-700-/.test(name))).toEqual([]);
    const packages = await readdir(fonts);
    expect(packages.sort()).toEqual([
      'ibm-plex-sans-arabic',
      'noto-sans',
      'noto-sans-hebrew',
      'noto-sans-jp',
      'noto-sans-kr',
      'noto-sans-sc',
    ]);
    for (const name of packages) {
      const slices = Object.keys(JSON.parse(await readFile(join(fonts, name, 'unicode.json'), 'utf8')) as object);
      const numbered = slices.filter((slice) => slice.startsWith('['));
      const shipped = files.filter((file) => file.startsWith(`${name}/`) && /-\d+-400-normal/.test(file));
      if (name.startsWith('noto-sans-') && name !== 'noto-sans-hebrew') expect(shipped).toHaveLength(numbered.length);
    }
  });
});
