/** The publish page's French: outcomes of the form and the content report as sentences. */
import { describe, expect, it } from 'vitest';
import {
  countSentences,
  pictureSentences,
  problemSentences,
  PUBLICATION_MESSAGES,
  publicationOutcome,
} from '../../src/features/content/publishing/report';
import type { ContentReport } from '../../src/content.config';

const report: ContentReport = {
  generatedAt: 1_795_000_000,
  collections: {
    menus: { read: 4, shown: 4 },
    categories: { read: 5, shown: 5 },
    articles: { read: 24, shown: 23 },
    partenaires: { read: 1, shown: 1 },
  },
  problems: [
    {
      collection: 'articles',
      id: 'fete',
      titre: 'Fête de l’école',
      field: 'date',
      reason: 'sa date est illisible',
      leftOut: 'document',
    },
    {
      collection: 'menus',
      id: 'reseaux',
      titre: 'Mastodon',
      field: 'liens.4.href',
      reason: 'il n’a pas d’adresse.',
      leftOut: 'link',
    },
    {
      collection: 'articles',
      id: 'rentree',
      field: 'ordre',
      reason: '« premier » n’est pas un nombre',
      leftOut: 'field',
    },
  ],
  pictures: {
    fetched: 7,
    failed: [
      {
        src: 'https://x/a.jpg',
        collection: 'articles',
        id: 'rentree',
        field: 'img.src',
        reason: 'le serveur a répondu « 404 Not Found » au lieu de l’image',
      },
      {
        src: 'https://x/a.jpg',
        collection: 'articles',
        id: 'rentree',
        field: 'contenu (<img>)',
        reason: 'le serveur a répondu « 404 Not Found » au lieu de l’image',
      },
      {
        src: '/contenu/m.png',
        collection: 'menus',
        id: 'reseaux',
        field: 'liens.0.picto.src',
        reason: 'le fichier public/contenu/m.png n’existe pas sur le site',
      },
      {
        src: 'https://x/l.png',
        collection: 'partenaires',
        id: 'mairie',
        field: 'img.src',
        reason: 'le serveur n’a pas répondu en 20 s',
      },
    ],
  },
};

describe('publicationOutcome', () => {
  it('knows the three outcomes of the space’s « Publier » and nothing else (no password to refuse any more)', () => {
    expect(['lancee', 'attente', 'erreur', 'refusee'].map(publicationOutcome)).toEqual([
      'lancee',
      'attente',
      'erreur',
      undefined,
    ]);
    expect(publicationOutcome(null)).toBeUndefined();
    expect(publicationOutcome('toString')).toBeUndefined();
    expect(publicationOutcome('<script>')).toBeUndefined();
    expect(PUBLICATION_MESSAGES.attente).toBe(
      'Une publication vient déjà d’être lancée. Attendez une minute, puis réessayez si vos dernières modifications ' +
        'n’apparaissent pas.',
    );
  });
});

describe('report sentences', () => {
  it('says what was left out in plain French, naming documents by their titre', () => {
    expect(problemSentences(report, { 'articles/rentree': 'C’est la rentrée' })).toEqual([
      'L’article « Fête de l’école » n’est pas publié : sa date est illisible.',
      'Un lien « Mastodon » du menu « reseaux » n’est pas publié : il n’a pas d’adresse.',
      'L’article « C’est la rentrée » est publié sans son champ ordre : « premier » n’est pas un nombre.',
    ]);
  });

  it('says which picture of which document is missing and why', () => {
    expect(
      pictureSentences(report, { 'articles/rentree': 'C’est la rentrée', 'partenaires/mairie': 'Mairie' }),
    ).toEqual([
      'L’image principale de l’article « C’est la rentrée » n’est pas publiée : le serveur a répondu « 404 Not Found ' +
        '» au lieu de l’image.',
      'Une image du texte de l’article « C’est la rentrée » n’est pas publiée : le serveur a répondu « 404 Not Found ' +
        '» au lieu de l’image.',
      'Le pictogramme d’un lien du menu « reseaux » n’est pas publié : le fichier public/contenu/m.png n’existe pas ' +
        'sur le site.',
      'L’image principale du partenaire « Mairie » n’est pas publiée : le serveur n’a pas répondu en 20 s.',
    ]);
  });

  it('counts published documents per collection and distinct pictures left out', () => {
    expect(countSentences(report)).toEqual([
      '4 menus publiés sur 4',
      '5 catégories publiées sur 5',
      '23 articles publiés sur 24',
      '1 partenaire publié sur 1',
      '7 images publiées, 3 images écartées',
    ]);
  });
});
