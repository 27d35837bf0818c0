/**
 * The space's CSV exports through their routes (GET /espace/preinscriptions/export.csv, /espace/dons/export.csv),
 * read back with a CSV parser as a spreadsheet splits them: a line feed typed into a name (or put there through the
 * Firebase console) stays inside its cell, and neither the cell nor any line within it starts a formula.
 */
import { randomUUID } from 'node:crypto';
import type { APIContext } from 'astro';
import { parse } from 'csv-parse/sync';
import { Timestamp } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptYear } from '../../src/features/donations/checkout/donations';
import { offlineGiftSchema, recordOfflineGift } from '../../src/features/donations/ledger/gift-entry.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import * as giftsExport from '../../src/pages/espace/dons/export.csv';
import * as preRegistrationsExport from '../../src/pages/espace/preinscriptions/export.csv';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { staffSession } from '../fixtures/staff';
import { validPreRegistration } from '../fixtures/submissions';

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld();
});
afterAll(() => world?.stop());

/** The rows of an export route's answer to `path` for `role`, as a spreadsheet reads them (BOM, `;`, CRLF). */
async function exported(
  route: { GET: (context: APIContext) => Response | Promise<Response> },
  path: string,
  role: 'admin',
) {
  const url = new URL(`http://127.0.0.1:4321${path}`);
  const context = { locals: { espace: staffSession(role) }, url, request: new Request(url) } as unknown as APIContext;
  const response = await route.GET(context);
  expect(response.status).toBe(200);
  return parse(await response.text(), { bom: true, delimiter: ';' }) as string[][];
}

/** True when the cell, or a line within it, starts with a character a spreadsheet takes for a formula. */
const startsFormula = (cell: string) => /(^|[\r\n])[=+\-@\t\r]/.test(cell);

describe('an export with a line feed in a name', () => {
  it('keeps each pre-registration on one row, with no formula in any cell or line of a cell', async () => {
    const attack = `Léa\n=cmd|' /C calc'!A0`;
    const id = randomUUID();
    await adminFirestore()
      .collection('inscripitions')
      .doc(id)
      .set({ ...validPreRegistration, enfantPrenom: attack, parentNom: '-Martin\r+1', date: Timestamp.now() });
    const rows = await exported(preRegistrationsExport, '/espace/preinscriptions/export.csv', 'admin');
    const row = rows.find((cells) => cells.includes(`Léa\n'=cmd|' /C calc'!A0`));
    expect(row).toBeDefined();
    expect(rows.every((cells) => cells.length === rows[0]!.length)).toBe(true);
    expect(row).toContain("'-Martin\r'+1");
    for (const cells of rows) for (const cell of cells) expect(startsFormula(cell), cell).toBe(false);
  });

  it('keeps each gift of the ledger on one row, with no formula in any cell or line of a cell', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const entry = offlineGiftSchema.parse({
      cle: randomUUID(),
      moyen: 'cheque',
      date: today,
      montant: '20',
      prenom: 'Jean',
      nom: 'Dupont',
      adresse: '12 rue Victor Hugo',
      postal: '69002',
      ville: 'Lyon',
      email: '',
    });
    const { id } = await recordOfflineGift(staffSession('tresorerie'), entry);
    // A name edited in the Firebase console, or sent by an older form.
    await adminFirestore().collection('dons').doc(id).update({ nom: 'Dupont\n=1+1' });
    const rows = await exported(giftsExport, `/espace/dons/export.csv?annee=${receiptYear(new Date())}`, 'admin');
    expect(rows.filter((cells) => cells.includes("Dupont\n'=1+1"))).toHaveLength(1);
    expect(rows.every((cells) => cells.length === rows[0]!.length)).toBe(true);
    for (const cells of rows) for (const cell of cells) expect(startsFormula(cell), cell).toBe(false);
  });
});

describe('the pre-registrations’ export after a search', () => {
  it('holds the requests the list shows for that search and status, and only those', async () => {
    const [found, other] = [`Zéphyrine${randomUUID().slice(0, 8)}`, `Octave${randomUUID().slice(0, 8)}`];
    for (const enfantPrenom of [found, other]) {
      await adminFirestore()
        .collection('inscripitions')
        .doc(randomUUID())
        .set({ ...validPreRegistration, enfantPrenom, date: Timestamp.now() });
    }
    // Typed as a family says it: no accent, another case.
    const query = encodeURIComponent(found.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase());
    const rows = await exported(preRegistrationsExport, `/espace/preinscriptions/export.csv?q=${query}`, 'admin');
    expect(rows.slice(1).map((cells) => cells[3])).toEqual([found]);
    const none = await exported(
      preRegistrationsExport,
      `/espace/preinscriptions/export.csv?q=${query}&statut=refusee`,
      'admin',
    );
    expect(none).toHaveLength(1);
  });
});
