/**
 * The site built from a database shaped like the original admin app's (content/original: no legal page, no
 * association document, no category `facile`): `scripts/build.ts` publishes it, writes /mentions, /rgpd and
 * /accessibilite from what the site knows (the association's address, the host, what each form keeps and how long),
 * says in French what the law still asks for (the build log, report.json read by /espace/publication), and prints no
 * warning while it renders the pages.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../bench/src/workspace';
import { startEmbeddedFirestore, type EmbeddedFirestore } from '../../scripts/lib/embedded-firestore';
import { readSeedDirectory, seedDocuments } from '../../scripts/lib/seed';
import { connectFirestore, firestoreTargetFromEnv } from '../../src/lib/firestore.server';
import { legalSentences } from '../../src/features/content/publishing/report';
import { SITE_CONFORMANCE } from '../../src/features/accessibility/rgaa';

const root = resolve(import.meta.dirname, '../..');
const DIRECTOR_FLAG =
  'La page « Mentions légales » est écrite par le site, faute d’article « mentions » publié ; il y manque le nom du ' +
  'directeur ou de la directrice de la publication, que la loi exige (LCEN, article 6) : à écrire dans l’espace, ' +
  'page « L’association et ses textes », partie « Reçus fiscaux et textes des pages ».';
const HOST =
  'Le site est hébergé par Netlify, Inc., 101 2nd Street, San Francisco, CA 94105, États-Unis (www.netlify.com).';
let workspace: Workspace;
let emulator: EmbeddedFirestore;
let build: { code: number | null; output: string };

/** The text of a built page's headings, paragraphs and list items, one space between them. */
const text = (route: string) => {
  const html = readFileSync(join(workspace.dir, 'dist', route, 'index.html'), 'utf8');
  const blocks = new JSDOM(html).window.document.querySelectorAll('main :is(h1, h2, h3, p, li)');
  return [...blocks].map((block) => block.textContent!.replace(/\s+/g, ' ').trim()).join(' ');
};

beforeAll(async () => {
  workspace = await createWorkspace(root, 'original-dataset');
  emulator = await startEmbeddedFirestore();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FIREBASE_PROJECT_ID: 'demo-original',
    FIRESTORE_EMULATOR_HOST: emulator.address,
  };
  delete env.FIREBASE_API_KEY;
  delete env.LEGAL_HOST;
  // A production build whoever runs it (vitest sets NODE_ENV=test).
  for (const name of Object.keys(env)) if (name === 'NODE_ENV' || name.startsWith('VITEST')) delete env[name];
  const connection = connectFirestore(firestoreTargetFromEnv(env));
  await seedDocuments(connection.db, await readSeedDirectory(join(root, 'content/original'))).finally(() =>
    connection.close(),
  );
  build = await new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/build.ts'],
      { cwd: workspace.dir, env, maxBuffer: 64 * 1024 * 1024 },
      (_error, stdout, stderr) => done({ code: child.exitCode, output: `${stdout}${stderr}` }),
    );
  });
}, 900_000);

afterAll(async () => {
  emulator?.stop();
  await workspace?.remove();
});

describe('the build of the original admin’s database', () => {
  it('publishes, saying in its log what the legal notice lacks, and prints no warning', () => {
    expect(build.code, build.output.slice(-3000)).toBe(0);
    expect(build.output).toContain(DIRECTOR_FLAG);
    expect(build.output).not.toMatch(/\[WARN\]/);
    const report = JSON.parse(readFileSync(join(workspace.dir, 'src/data/report.json'), 'utf8'));
    // The words /espace/publication shows under « Pages légales ».
    expect(legalSentences(report)).toEqual([
      DIRECTOR_FLAG,
      'La page « Données personnelles » est écrite par le site, faute d’article « rgpd » publié.',
      'La page « Accessibilité » est écrite par le site, faute d’article « accessibilite » publié.',
    ]);
  });

  it('writes the legal notice with the association’s own address, its contacts and the host', () => {
    const mentions = text('mentions');
    expect(mentions).toContain('Ce site est publié par l’association Les Petits Pas Ensemble.');
    expect(mentions).toContain('Siège : École des Petits Pas, 12 rue des Tilleuls, 69007 Lyon');
    expect(mentions).toContain('Secrétariat : 04 78 12 34 56');
    expect(mentions).toContain('Direction de la publication Non renseignée pour le moment.');
    expect(mentions).toContain(HOST);
  });

  it('writes the privacy notice: who is responsible, and what each form keeps, why, for whom and how long', () => {
    const rgpd = text('rgpd');
    expect(rgpd).toContain(
      'Qui est responsable de vos données ? L’association Les Petits Pas Ensemble, École des Petits Pas, 12 rue des ' +
        'Tilleuls, 69007 Lyon. Pour toute question sur vos données, écrivez à contact@petitspas-ensemble.fr.',
    );
    expect(rgpd).toContain(
      'Lettre d’information Ce que nous recueillons : votre adresse email. Pourquoi : vous envoyer les nouvelles de ' +
        'l’école et de l’association, avec votre consentement (RGPD, article 6.1.a), que vous retirez quand vous ' +
        'voulez par le lien de désinscription de chaque lettre. Qui le voit : le bureau de l’association. Combien de ' +
        'temps nous le gardons : jusqu’à votre désinscription ; une inscription jamais confirmée est effacée ' +
        '30 jours après le message de confirmation ;',
    );
    expect(rgpd).toContain(
      'Qui le voit : le bureau de l’association et l’équipe « Admissions ». Combien de temps nous le gardons : 12 ' +
        'mois après notre décision (acceptée, liste d’attente ou refusée), puis la préinscription est supprimée ' +
        'automatiquement ; sans décision, elle est conservée.',
    );
    expect(rgpd).toContain(
      'Qui le voit : le bureau de l’association et l’équipe « Trésorerie ». Combien de temps nous le gardons : 10 ' +
        'ans, comme l’exigent nos obligations comptables.',
    );
    expect(rgpd).toContain('Combien de temps nous le gardons : 30 jours après l’envoi, puis la trace est effacée.');
    expect(rgpd).toContain('Netlify, Inc., 101 2nd Street, San Francisco, CA 94105, États-Unis (www.netlify.com) : ');
  });

  it('writes the accessibility statement’s standard parts, its conformance from the RGAA grid', () => {
    const statement = text('accessibilite');
    expect(statement).toContain(
      'L’association Les Petits Pas Ensemble s’engage à rendre son site accessible, conformément à l’article 47 de ' +
        'la loi n° 2005-102 du 11 février 2005.',
    );
    expect(statement).toContain('État de conformité L’état de conformité de ce site au référentiel général');
    expect(statement).toContain(
      'Résultats de notre auto-évaluation Selon notre grille d’auto-évaluation du RGAA 4.1, le site est ' +
        SITE_CONFORMANCE.level,
    );
    expect(statement).toContain('Par courrier : École des Petits Pas, 12 rue des Tilleuls, 69007 Lyon');
    expect(statement).toContain('Voies de recours');
  });
});
