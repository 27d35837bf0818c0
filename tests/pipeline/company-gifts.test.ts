/**
 * A company's gift end to end: « Don d’entreprise » posts `donateur: entreprise` to POST /api/don, the Checkout
 * Session asks the fake Stripe for the business name and an optional SIREN, the paid session's signed event records
 * `entreprise` and `siren` in the ledger, and the receipt (read back with unpdf) and the thank-you mail are a
 * company's: CERFA n° 16216, article 238 bis, 60 %. The embedded Firestore, the SMTP catcher, the fake Stripe.
 */
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { siteAddress } from '../../scripts/lib/site-address';
import { receiptHandler } from '../../src/features/donations/ledger/donation-ledger.server';
import { siteReceiptContext } from '../../src/features/donations/receipts/gift-mails.server';
import { isSiren } from '../../src/features/donations/ledger/company-gifts';
import { receiptYear } from '../../src/features/donations/checkout/donations';
import { issueYearlyReceipts } from '../../src/features/donations/yearly/issue-receipts.server';
import { trySend } from '../../src/features/mail/mail-env.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { logId } from '../../src/lib/log-id.server';
import * as don from '../../src/pages/api/don';
import { FAKE_COMPANY, FAKE_DONOR, paidInvoice, paidSession, stripeEvent } from '../fixtures/fake-stripe';
import { useMailAndStripe } from '../fixtures/mail-setup';
import { deliver } from '../fixtures/webhook';

const SITE = new URL(siteAddress()).origin;
const ISSUER = {
  name: 'École des tests',
  addressLines: ['12 rue des Tilleuls', '69007 Lyon'],
  object: 'Gérer une école primaire inclusive.',
  registration: '',
  signatory: 'Claire Martin, présidente',
};

const servers = useMailAndStripe();

/** POSTs a draft to /api/don from this site's page; the session the fake created. */
async function createSession(draft: Record<string, unknown>): Promise<Record<string, unknown>> {
  const request = new Request(`${SITE}/api/don`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SITE },
    body: JSON.stringify(draft),
  });
  const response = await don.POST({ request } as never);
  expect(response.status).toBe(200);
  const [session] = servers.fake.sessions().values();
  return session!;
}

describe('a company’s gift', () => {
  it('asks Stripe for the business name and an optional 9-digit SIREN, and marks the session', async () => {
    await createSession({ moyen: 'lien', somme: 5, donateur: 'entreprise' });
    const [request] = servers.fake.requests();
    expect(request!.body.name_collection).toEqual({
      business: { enabled: 'true', optional: 'false' },
      individual: { enabled: 'true', optional: 'true' },
    });
    expect(request!.body.custom_fields).toEqual([
      {
        key: 'siren',
        label: { type: 'custom', custom: 'Numéro SIREN de l’entreprise (9 chiffres)' },
        type: 'numeric',
        numeric: { minimum_length: '9', maximum_length: '9' },
        optional: 'true',
      },
    ]);
    expect(request!.body.metadata).toEqual({ origine: 'site-association', donateur: 'entreprise' });
  });

  it('a person’s gift asks for a person’s name only, as before', async () => {
    await createSession({ moyen: 'lien', somme: 5 });
    const [request] = servers.fake.requests();
    expect(request!.body.name_collection).toEqual({ individual: { enabled: 'true', optional: 'false' } });
    expect(request!.body.custom_fields).toBeUndefined();
    expect(request!.body.metadata).toEqual({ origine: 'site-association' });
  });

  it('records the company and its SIREN, and issues a company receipt (article 238 bis, 60 %) by mail', async () => {
    const session = await createSession({ moyen: 'lien', somme: 5, donateur: 'entreprise' });
    const email = `mecenat-${Date.now()}@exemple.fr`;
    const paid = paidSession(session, { ...FAKE_DONOR, email });
    expect(await deliver({ ...stripeEvent('checkout.session.completed', paid), livemode: true })).toBe(200);

    const stored = (
      await adminFirestore()
        .collection('dons')
        .doc(paid.id as string)
        .get()
    ).data();
    expect(stored).toMatchObject({ entreprise: FAKE_COMPANY.name, siren: FAKE_COMPANY.siren, montant: 50_000 });

    const recu = receiptHandler(async () => ISSUER);
    const response = await recu({ request: new Request(`${SITE}/api/recu?session_id=${paid.id as string}`) });
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    const flat = (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text.replace(/\s+/g, ' ');
    for (const line of [
      'Reçu des dons et versements effectués par les entreprises',
      'Article 238 bis du code général des impôts (CGI) — modèle CERFA n° 16216 (formulaire 2041-MEC-SD)',
      `Reçu n° ${stored?.recu}`,
      'Entreprise donatrice',
      `Dénomination et numéro SIREN ${FAKE_COMPANY.name} — SIREN 732 829 320`,
      'Adresse 8 quai Rambaud, Bâtiment B, 69002 Lyon',
      'Montant 500,00 €',
      'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction ' +
        'd’impôt prévue à l’article 238 bis du code général des impôts.',
      'Réduction d’impôt pour l’entreprise : 60 % du don, soit 300 €, dans la limite de 20 000 € ou de 5 ‰ du ' +
        'chiffre d’affaires annuel hors taxes si ce montant est plus élevé (excédent reportable sur les cinq ' +
        'exercices suivants).',
      'Fait le',
      'Pour l’association : Claire Martin, présidente',
    ]) {
      expect(flat).toContain(line.replace(/\s+/g, ' '));
    }
    for (const personal of ['article 200', '66 %', 'CERFA n° 11580', 'Nom et prénom', 'revenu imposable']) {
      expect(flat).not.toContain(personal);
    }
    // One A4 page, the signature on it.
    expect(
      (
        await getDocumentProxy(
          new Uint8Array(
            await (
              await recu({ request: new Request(`${SITE}/api/recu?session_id=${paid.id as string}`) })
            ).arrayBuffer(),
          ),
        )
      ).numPages,
    ).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 300));
    const [mail] = servers.world.smtp.mails.filter((caught) => caught.to.includes(email));
    const text = mail!.text.replace(/\s+/g, ' ');
    expect(text).toContain(
      `Établi au nom de ${FAKE_COMPANY.name}, il ouvre droit pour l’entreprise à une réduction d’impôt de 60 % du ` +
        'don (article 238 bis du code général des impôts) : après réduction, ce don lui coûte 200 €.',
    );
    expect(text).not.toContain('66 %');
  });

  it('a monthly gift: its yearly receipt is a company’s (article 238 bis, 60 %), and its mail says 60 %', async () => {
    const session = await createSession({ moyen: 'lien', somme: 5, donateur: 'entreprise', frequence: 'mensuel' });
    const email = `mecenat-mensuel-${Date.now()}@exemple.fr`;
    const donor = { ...FAKE_DONOR, email };
    const paid = paidSession(session, donor);
    expect(await deliver({ ...stripeEvent('checkout.session.completed', paid), livemode: true })).toBe(200);
    // Last year's two instalments of 500 €: invoices carry the customer, not the company.
    const year = receiptYear(new Date()) - 1;
    const metadata = (session.subscription_data as { metadata: Record<string, string> }).metadata;
    for (const month of [3, 4]) {
      const paidAt = Math.floor(Date.UTC(year, month - 1, 5, 12) / 1000);
      const invoice = paidInvoice(paid.subscription!, 50_000, metadata, donor, paidAt, paid.customer);
      expect(await deliver({ ...stripeEvent('invoice.paid', invoice), livemode: true })).toBe(200);
    }

    const report = await issueYearlyReceipts(adminFirestore(), year, siteReceiptContext, { deadlineMs: 60_000 });
    const id = `${paid.customer}-${year}`;
    expect(report.issued).toEqual([[id, `${year}-00001`]]);
    const receipt = (await adminFirestore().collection('recusAnnuels').doc(id).get()).data();
    expect(receipt).toMatchObject({ entreprise: FAKE_COMPANY.name, siren: FAKE_COMPANY.siren, montant: 100_000 });

    await trySend(report.mails, 5000);
    const mails = servers.world.smtp.mails.filter((caught) => caught.to.includes(email));
    const mail = mails.find((caught) => caught.subject.startsWith(`Votre reçu fiscal ${year}`))!;
    expect(report.mails).toEqual([`recus-annuels-${logId(id)}`]);
    const text = mail.text.replace(/\s+/g, ' ');
    expect(text).toContain(
      `Établi au nom de ${FAKE_COMPANY.name}, il ouvre droit pour l’entreprise à une réduction d’impôt de 60 % de ` +
        'ces dons (article 238 bis du code général des impôts) : après réduction, ils lui ont coûté 400 €.',
    );
    expect(text).toContain('le reçu joint servira pour la déclaration fiscale de l’entreprise.');
    for (const personal of ['66 %', 'impôt sur le revenu', 'déclaration de revenus']) {
      expect(text).not.toContain(personal);
    }
    const [pdf] = mail.attachments;
    const flat = (
      await extractText(await getDocumentProxy(new Uint8Array(pdf!.content)), { mergePages: true })
    ).text.replace(/\s+/g, ' ');
    for (const line of [
      'Reçu des dons et versements effectués par les entreprises',
      'Article 238 bis du code général des impôts (CGI) — modèle CERFA n° 16216 (formulaire 2041-MEC-SD)',
      `Reçu n° ${year}-00001`,
      `Dénomination et numéro SIREN ${FAKE_COMPANY.name} — SIREN 732 829 320`,
      'Montant 1 000,00 €',
      `Période des versements Dons mensuels du 1er janvier au 31 décembre ${year}`,
      'Nombre de versements 2',
      'ouvrent droit à la réduction d’impôt prévue à l’article 238 bis du code général des impôts.',
      'Réduction d’impôt pour l’entreprise : 60 % des dons, soit 600 €',
    ]) {
      expect(flat).toContain(line);
    }
    for (const personal of ['article 200', '66 %', 'CERFA n° 11580', 'Nom et prénom', 'revenu imposable']) {
      expect(flat).not.toContain(personal);
    }
  });

  it('keeps no SIREN that is not one, and still records the gift', async () => {
    const session = await createSession({ moyen: 'lien', somme: 1, donateur: 'entreprise' });
    const paid = paidSession(session, FAKE_DONOR, { name: 'Atelier Nord', siren: '123456789' });
    expect(await deliver(stripeEvent('checkout.session.completed', paid))).toBe(200);
    const stored = (
      await adminFirestore()
        .collection('dons')
        .doc(paid.id as string)
        .get()
    ).data();
    expect(stored?.entreprise).toBe('Atelier Nord');
    expect(stored?.nom).toBe(FAKE_DONOR.name);
    expect(stored?.siren).toBeUndefined();
  });
});

describe('isSiren', () => {
  it('accepts 9 digits with a right Luhn key, and La Poste’s', () => {
    expect(isSiren('732829320')).toBe(true);
    expect(isSiren('552100554')).toBe(true);
    expect(isSiren('356000000')).toBe(true);
    for (const wrong of ['123456789', '73282932', '7328293200', '73282932a', '']) expect(isSiren(wrong)).toBe(false);
  });
});
