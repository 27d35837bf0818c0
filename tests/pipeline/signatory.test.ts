/**
 * Receipts are signed: against the embedded Firestore and the SMTP catcher, a company's cheque recorded while no
 * signatory is named waits unnumbered (the ledger says why, nothing is mailed, the sweep numbers nothing); the
 * treasurer's form refuses an SVG and missing fields with nothing written, then saves a name, a quality and a PNG
 * signature, which issues the waiting receipt at once: the next number, the mail with its PDF, and the PDF (read back
 * with unpdf) a company's receipt under article 238 bis with the signatory's name, quality and the picture.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listGifts, receiptOf } from '../../src/features/donations/ledger/ledger-reads.server';
import { offlineGiftSchema, recordOfflineGift } from '../../src/features/donations/ledger/gift-entry.server';
import { siteNumberedGiftMails } from '../../src/features/donations/receipts/gift-mails.server';
import { numberPendingReceipts } from '../../src/features/donations/receipts/receipt-numbering.server';
import { saveSignatory, type SignatoryPost } from '../../src/features/donations/receipts/signatory-page.server';
import { SIGNATORY_DOCUMENT } from '../../src/features/donations/receipts/signatory.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { staffSession } from '../fixtures/staff';

let world: MailWorld;
const fallback = process.env.ASSOCIATION_SIGNATORY;
beforeAll(async () => {
  world = await startMailWorld();
  // No signatory at all: neither the stored one nor the environment's fallback.
  delete process.env.ASSOCIATION_SIGNATORY;
});
afterAll(async () => {
  process.env.ASSOCIATION_SIGNATORY = fallback;
  await world?.stop();
});

const treasurer = staffSession('tresorerie');
const today = new Date().toISOString().slice(0, 10);
const stored = async (id: string) => (await adminFirestore().collection('dons').doc(id).get()).data();

/** The signatory form as its action reads it (`nom`, `qualite`, `retirer`), with `file` as the signature. */
function form(fields: Record<string, string>, file?: File): SignatoryPost {
  return { nom: '', qualite: '', retirer: '', ...fields, signature: file };
}

describe('receipts wait for their signatory', () => {
  it('numbers nothing unsigned, then issues the waiting company receipt, signed, once the treasurer names one', async () => {
    const email = `mecene-${randomUUID().slice(0, 8)}@exemple.fr`;
    const entry = offlineGiftSchema.parse({
      ...{ cle: randomUUID(), moyen: 'cheque', date: today, montant: '500', donateur: 'entreprise' },
      ...{ entreprise: 'Boulangerie Durand SARL', siren: '732 829 320', prenom: 'Luc', nom: 'Durand' },
      ...{ adresse: '8 quai Rambaud', postal: '69002', ville: 'Lyon', email },
    });
    const { id, recu } = await recordOfflineGift(treasurer, entry);
    expect(recu).toBe('');
    expect(await stored(id)).toMatchObject({
      aNumeroter: true,
      entreprise: 'Boulangerie Durand SARL',
      siren: '732829320',
      prenom: 'Luc',
      nom: 'Durand',
    });
    expect((await stored(id))!.recu).toBeUndefined();
    const ledger = await listGifts(treasurer, new Date().getFullYear());
    expect(ledger.signed).toBe(false);
    expect(ledger.live.find((row) => row.id === id)).toMatchObject({ numberPending: true, recu: '' });
    expect(await numberPendingReceipts(adminFirestore(), siteNumberedGiftMails(), { deadlineMs: 10_000 })).toEqual({
      numbered: [],
      mails: [],
    });
    expect(world.smtp.mails.filter((mail) => mail.to.includes(email))).toHaveLength(0);

    // Refused, nothing written: an SVG (never drawn as it is), a missing quality.
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], 's.svg', {
      type: 'image/svg+xml',
    });
    expect(await saveSignatory(treasurer, form({ nom: 'Inès Moreau', qualite: 'trésorière' }, svg))).toEqual({
      ok: false,
      typed: { nom: 'Inès Moreau', qualite: 'trésorière', hasSignature: false },
      issues: [
        {
          field: 'signature',
          message: 'Ce fichier n’est pas une image PNG ou JPEG : choisissez une photo ou un scan de la signature.',
        },
      ],
    });
    const missing = await saveSignatory(treasurer, form({ nom: 'Inès Moreau', qualite: ' ' }));
    expect(missing).toMatchObject({
      ok: false,
      issues: [
        { field: 'qualite', message: 'Merci de saisir la qualité du signataire, par exemple présidente ou trésorier' },
      ],
    });
    expect((await adminFirestore().doc(SIGNATORY_DOCUMENT).get()).exists).toBe(false);
    expect((await stored(id))!.recu).toBeUndefined();
    await expect(saveSignatory(staffSession('edition'), form({ nom: 'X', qualite: 'Y' }))).rejects.toMatchObject({
      status: 403,
    });

    const png = await sharp({ create: { width: 1200, height: 400, channels: 4, background: '#203040ff' } })
      .png()
      .toBuffer();
    const signature = new File([new Uint8Array(png)], 'signature.png', { type: 'image/png' });
    expect(await saveSignatory(treasurer, form({ nom: ' Inès Moreau ', qualite: 'trésorière' }, signature))).toEqual({
      ok: true,
      issued: 1,
    });
    const saved = (await adminFirestore().doc(SIGNATORY_DOCUMENT).get()).data()!;
    expect(saved).toMatchObject({ nom: 'Inès Moreau', qualite: 'trésorière', modifiePar: 'tresorerie@exemple.org' });
    // Encoded again and fitted within 900 × 300 pixels.
    expect(await sharp(Buffer.from(saved.signature.donnees, 'base64')).metadata()).toMatchObject({
      format: 'png',
      width: 900,
      height: 300,
    });
    const numbered = (await stored(id))!;
    expect(numbered.recu).toMatch(/^\d{4}-\d{5}$/);
    expect((await listGifts(treasurer, new Date().getFullYear())).signed).toBe(true);
    const mails = world.smtp.mails.filter((mail) => mail.to.includes(email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.attachments[0]!.filename).toBe(`recu-fiscal-${numbered.recu}.pdf`);

    const { pdf } = await receiptOf(treasurer, id);
    const document = await getDocumentProxy(pdf);
    const text = (await extractText(document, { mergePages: true })).text.replace(/\s+/g, ' ');
    for (const line of [
      'Reçu des dons et versements effectués par les entreprises',
      'Dénomination et numéro SIREN Boulangerie Durand SARL — SIREN 732 829 320',
      'Mode de versement Chèque',
      'Réduction d’impôt pour l’entreprise : 60 % du don, soit 300 €',
      'Pour l’association : Inès Moreau, trésorière',
    ]) {
      expect(text).toContain(line);
    }
    expect(text).not.toContain('article 200');
    const { OPS } = (await import('unpdf/pdfjs')) as unknown as { OPS: Record<string, number> };
    const { fnArray } = await (await document.getPage(1)).getOperatorList();
    expect(fnArray).toContain(OPS.paintImageXObject);
  });
});
