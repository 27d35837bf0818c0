/**
 * The /espace home's news by role (home-news.server.ts), on an embedded Firestore: an editor reads how much of the
 * content changed and what waits for a publish; the admissions team is told of old requests still without a decision,
 * which nothing deletes. Each role reads only its own sections' blocks.
 */
import { Timestamp } from 'firebase-admin/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveContent } from '../../src/features/content/editing/content-store.server';
import { homeNews } from '../../src/features/espace/home-news.server';
import { adminFirestore } from '../../src/lib/firebase-admin.server';
import { startMailWorld, type MailWorld } from '../fixtures/mail-setup';
import { staffSession } from '../fixtures/staff';

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld();
});
afterAll(() => world?.stop());

const staff = staffSession;
const partner = (titre: string) => ({ slug: '', cat: 'partenaires', titre, intro: '', contenu: '', date: '' });
const DAY = 86_400_000;

describe('the editors’ block', () => {
  it('counts the changes since the visit and those saved since the last publish, in French', async () => {
    const editor = staff('edition');
    await saveContent(editor, { collection: 'partenaires', id: 'boulangerie', data: partner('Boulangerie') });
    await saveContent(editor, { collection: 'partenaires', id: 'librairie', data: partner('Librairie') });
    const first = await homeNews(editor, undefined);
    expect(first).toEqual({
      unavailable: false,
      news: [
        {
          title: 'Contenu du site',
          lines: [
            'Le site n’a pas encore été publié depuis l’espace.',
            '2 modifications enregistrées : publiez le site pour les mettre en ligne.',
          ],
          link: { href: '/espace/publication', text: 'Publier le site' },
        },
      ],
    });

    const visit = new Date(Date.now() - 60_000);
    await adminFirestore()
      .collection('publications')
      .add({ uid: editor.uid, qui: editor.email, date: Timestamp.now(), resultat: 'demandee' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await saveContent(editor, { collection: 'partenaires', id: 'pharmacie', data: partner('Pharmacie') });
    const [block] = (await homeNews(editor, visit)).news;
    expect(block!.lines).toEqual([
      '3 modifications du contenu.',
      expect.stringMatching(
        /^Dernière publication demandée le \d{1,2}(er)? \p{L}+ \d{4} à \d\d:\d\d par edition@exemple\.org\.$/u,
      ),
      '1 modification enregistrée depuis : publiez le site pour la mettre en ligne.',
    ]);
  });
});

describe('the admissions team’s block', () => {
  it('tells of requests over six months old without a decision, and shows no other section', async () => {
    const requests = adminFirestore().collection('inscripitions');
    const received = (daysAgo: number) => Timestamp.fromMillis(Date.now() - daysAgo * DAY);
    await requests.doc('ancienne-sans-decision').set({ enfantPrenom: 'Léa', date: received(200), statut: 'contactee' });
    await requests.doc('recente-sans-decision').set({ enfantPrenom: 'Tom', date: received(20) });
    await requests.doc('ancienne-decidee').set({
      ...{ enfantPrenom: 'Zoé', date: received(300), statut: 'refusee' },
      ...{ dateDecision: received(250), dateSuppression: received(-115) },
    });
    const { news } = await homeNews(staff('admissions'), undefined);
    expect(news.map((block) => block.title)).toEqual(['Préinscriptions']);
    expect(news[0]!.lines).toEqual([
      '3 nouvelles préinscriptions.',
      '1 demande reçue il y a plus de six mois attend une décision : sans décision, rien n’est jamais supprimé.',
    ]);
  });
});
