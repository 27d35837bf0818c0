/**
 * The legal pages a site publishes when its editors wrote none (articles `mentions`, `rgpd`, `accessibilite`): the
 * legal notice (LCEN art. 6), the privacy notice of the forms (GDPR art. 13) and the accessibility statement (law
 * 2005-102 art. 47, RGAA's model), written from what the site knows (legal-facts.ts). What the forms keep, and how
 * long, comes from the very constants the retention job and the staff space use, so the notice cannot drift from what
 * the site does. Each page is an article's raw fields (titre, intro, contenu with <h3> sections), rendered like one.
 */
import { RETENTION_MONTHS } from '../../admissions/admissions';
import { ROLE_LABELS, SECTIONS, type SectionName } from '../../espace/roles';
import { GIFT_RECORDS_KEPT_YEARS } from '../../donations/checkout/donations';
import { UNCONFIRMED_KEPT_MS } from '../../newsletter/subscription';
import { OUTBOX_KEPT_DAYS } from '../../mail/mail';
import type { LegalFacts } from './legal-facts';

/** A generated page as an article's fields: plain titre, HTML intro and contenu (facts escaped). */
export interface GeneratedLegalPage {
  titre: string;
  intro: string;
  contenu: string;
}

const DAY_MS = 86_400_000;

/** Plain text into HTML text. */
const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

const list = (items: string[]) => `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;

/** « 30 jours », « 12 mois », « 10 ans » (a count and its unit, French, singular or plural). */
const during = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** « le bureau de l’association et l’équipe « Admissions » »: who opens a section of the space. */
function whoSees(section: SectionName): string {
  const roles: readonly string[] = SECTIONS[section].roles;
  const names = roles.map((role) =>
    role === 'admin' ? 'le bureau de l’association' : `l’équipe « ${ROLE_LABELS[role as 'edition'].name} »`,
  );
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} et ${names.at(-1)}` : (names[0] ?? '');
}

/** One treatment of personal data: what a form collects, why and on which basis, who sees it, how long it is kept. */
export interface PersonalData {
  /** The form, as visitors know it. */
  form: string;
  collected: string;
  purpose: string;
  seenBy: string;
  kept: string;
}

/**
 * What the site's forms collect, why, who sees it and how long it is kept, from the constants the retention job
 * (src/features/admissions/retention.server.ts) and the staff space apply.
 */
export function personalData(): PersonalData[] {
  return [
    {
      form: 'Lettre d’information',
      collected: 'votre adresse email',
      purpose:
        'vous envoyer les nouvelles de l’école et de l’association, avec votre consentement (RGPD, article 6.1.a), ' +
        'que vous retirez quand vous voulez par le lien de désinscription de chaque lettre',
      seenBy: whoSees('lettre'),
      kept:
        'jusqu’à votre désinscription ; une inscription jamais confirmée est effacée ' +
        `${during(Math.round(UNCONFIRMED_KEPT_MS / DAY_MS), 'jour', 'jours')} après le message de confirmation ; ` +
        'après une désinscription, nous ne gardons que la preuve de votre consentement et de son retrait, sans votre ' +
        'adresse',
    },
    {
      form: 'Préinscription',
      collected:
        'les noms et prénoms de l’enfant et de ses parents, votre email, votre adresse postale et ' +
        'ce que vous choisissez de nous dire',
      purpose:
        'étudier la demande d’inscription et vous recontacter (RGPD, article 6.1.b : mesures prises à votre ' +
        'demande) ; ce que vous dites de la santé ou du handicap de l’enfant est facultatif (article 9.2.a)',
      seenBy: whoSees('preinscriptions'),
      kept:
        `${during(RETENTION_MONTHS, 'mois', 'mois')} après notre décision (acceptée, liste d’attente ou refusée), ` +
        'puis la préinscription est supprimée automatiquement ; sans décision, elle est conservée',
    },
    {
      form: 'Dons',
      collected:
        'vos nom, prénom, email, adresse postale et le montant de votre don ; vos coordonnées bancaires sont ' +
        'saisies chez Stripe, nous ne les voyons jamais',
      purpose:
        'encaisser votre don et vous envoyer votre reçu fiscal (RGPD, article 6.1.b, et nos obligations comptables ' +
        'et fiscales, article 6.1.c)',
      seenBy: whoSees('dons'),
      kept: `${during(GIFT_RECORDS_KEPT_YEARS, 'an', 'ans')}, comme l’exigent nos obligations comptables`,
    },
    {
      form: 'Emails envoyés par le site',
      collected: 'à qui, quand, l’objet du message et la réponse du serveur d’envoi',
      purpose: 'savoir si un message est bien parti, et le renvoyer s’il a échoué',
      seenBy: whoSees('courriels'),
      kept: during(OUTBOX_KEPT_DAYS, 'jour', 'jours') + ' après l’envoi, puis la trace est effacée',
    },
  ];
}

/** « Les Amis de l’école, 3 rue X, 69000 Lyon »: the publisher as a phrase, or a neutral one when unnamed. */
function publisher(facts: LegalFacts): string {
  const name = facts.name ? `l’association <strong>${escape(facts.name)}</strong>` : 'l’association';
  return facts.address.length > 0 ? `${name}, ${facts.address.map(escape).join(', ')}` : name;
}

/** `text` with its first letter in capitals. */
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Where to write: the email, else the contact page. */
function writeTo(facts: LegalFacts): string {
  return facts.email
    ? `écrivez à <a href="mailto:${escape(facts.email)}">${escape(facts.email)}</a>`
    : 'écrivez-nous (page <a href="/contact">Contact</a>)';
}

function mentions(facts: LegalFacts): GeneratedLegalPage {
  const editor = [
    ...(facts.address.length > 0 ? [`Siège : ${facts.address.map(escape).join(', ')}`] : []),
    ...facts.contacts.map(escape),
    ...(facts.registration ? [`Numéros d’enregistrement : ${escape(facts.registration)}`] : []),
  ];
  return {
    titre: 'Mentions légales',
    intro: '<p>Qui publie ce site, qui l’héberge et comment nous joindre.</p>',
    contenu:
      `<h3>Éditeur du site</h3><p>Ce site est publié par ${publisher({ ...facts, address: [] })}.</p>` +
      (editor.length > 0 ? list(editor) : '') +
      '<h3>Direction de la publication</h3>' +
      `<p>${facts.director ? escape(facts.director) : 'Non renseignée pour le moment.'}</p>` +
      `<h3>Hébergement</h3><p>Le site est hébergé par ${escape(facts.host)}.</p>` +
      '<h3>Vos données et l’accessibilité</h3><p>Ce que nous faisons de vos données est expliqué sur la page ' +
      '<a href="/rgpd">Données personnelles</a> ; ce que nous faisons pour que chacun puisse utiliser le site, dans ' +
      'la <a href="/accessibilite">déclaration d’accessibilité</a>.</p>',
  };
}

function rgpd(facts: LegalFacts): GeneratedLegalPage {
  const treatments = personalData().map(
    (data) =>
      `<h3>${escape(data.form)}</h3>` +
      list([
        `<strong>Ce que nous recueillons</strong> : ${escape(data.collected)}.`,
        `<strong>Pourquoi</strong> : ${escape(data.purpose)}.`,
        `<strong>Qui le voit</strong> : ${escape(data.seenBy)}.`,
        `<strong>Combien de temps nous le gardons</strong> : ${escape(data.kept)}.`,
      ]),
  );
  return {
    titre: 'Données personnelles',
    intro:
      '<p>Quand vous vous inscrivez à notre lettre d’information, préinscrivez un enfant ou faites un don, vous nous ' +
      'confiez des informations : voici ce que nous en faisons, et comment garder la main dessus.</p>',
    contenu:
      `<h3>Qui est responsable de vos données ?</h3><p>${capital(publisher(facts))}. Pour toute question sur vos ` +
      `données, ${writeTo(facts)}.</p>` +
      treatments.join('') +
      '<h3>Nos prestataires</h3><p>Nous ne vendons ni ne prêtons jamais vos données. Des prestataires les traitent ' +
      'pour notre compte :</p>' +
      list([
        'Google Firebase (Google Ireland Limited) : la base de données où sont enregistrés les formulaires ;',
        'Stripe (Stripe Payments Europe, Limited, Irlande) : le paiement des dons par carte ;',
        `${escape(facts.host)} : l’hébergement du site, par lequel passent vos formulaires ;`,
        'notre prestataire d’envoi d’emails : l’envoi des messages du site.',
      ]) +
      '<p>Certaines données peuvent ainsi être transférées hors de l’Union européenne, avec les garanties ' +
      'prévues par le RGPD (clauses contractuelles types de la Commission européenne).</p>' +
      '<h3>Vos droits</h3><p>Vous pouvez accéder à vos données, les faire rectifier ou effacer, vous opposer à leur ' +
      'utilisation, en demander la limitation, les récupérer (portabilité) et retirer votre consentement. Pour cela, ' +
      `${writeTo(facts)}. Nous vous répondons dans un délai d’un mois.</p>` +
      '<p>Si vous pensez que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la CNIL sur ' +
      '<a href="https://www.cnil.fr">www.cnil.fr</a>.</p>' +
      '<h3>Cookies</h3><p>Ce site ne dépose aucun cookie de mesure d’audience ni de publicité.</p>',
  };
}

/**
 * The accessibility statement's conformance part: the level, rate and criteria follow the page, computed from the RGAA
 * grid (src/features/accessibility/RgaaResults.astro), so this text states no figure of its own.
 */
export const CONFORMANCE_STATUS =
  '<p>L’état de conformité de ce site au référentiel général d’amélioration de l’accessibilité (RGAA), ' +
  'version 4.1, vient de notre auto-évaluation, critère par critère : son niveau, son taux et les critères pas ' +
  'encore vérifiés sont donnés plus bas, dans « Résultats de notre auto-évaluation ».</p>';

function accessibilite(facts: LegalFacts): GeneratedLegalPage {
  const reach = [
    ...facts.contacts.map(escape),
    ...(facts.address.length > 0 ? [`Par courrier : ${facts.address.map(escape).join(', ')}`] : []),
    ...(facts.contacts.length === 0 ? ['la page <a href="/contact">Contact</a>'] : []),
  ];
  return {
    titre: 'Déclaration d’accessibilité',
    intro:
      '<p>Nous voulons que chacun puisse utiliser ce site, quelle que soit sa façon de naviguer : voici où nous en ' +
      'sommes.</p>',
    contenu:
      `<p>${capital(publisher({ ...facts, address: [] }))} s’engage à rendre son site accessible, ` +
      'conformément à l’article 47 de la loi n° 2005-102 du 11 février 2005. Cette déclaration s’applique à ' +
      'l’ensemble du site.</p>' +
      `<h3>État de conformité</h3>${CONFORMANCE_STATUS}` +
      '<h3>Technologies utilisées</h3>' +
      list(['HTML', 'CSS', 'JavaScript, pour quelques éléments interactifs', 'WAI-ARIA']) +
      '<h3>Adapter l’affichage</h3><p>La page <a href="/affichage">Paramètres d’affichage</a> permet de choisir un ' +
      'thème sombre, un texte plus grand, un espacement plus large et de réduire les animations.</p>' +
      '<h3>Un problème ? Écrivez-nous</h3><p>Vous n’arrivez pas à lire un contenu ou à utiliser un service ? ' +
      'Contactez-nous, nous vous donnerons l’information autrement et corrigerons le problème :</p>' +
      list(reach) +
      '<h3>Voies de recours</h3><p>Si notre réponse ne vous convient pas, vous pouvez saisir le Défenseur des ' +
      'droits :</p>' +
      list([
        'par le formulaire en ligne sur <a href="https://formulaire.defenseurdesdroits.fr/">' +
          'formulaire.defenseurdesdroits.fr</a> ;',
        'auprès d’un délégué près de chez vous (<a href="https://www.defenseurdesdroits.fr/carte-des-delegues">' +
          'carte des délégués</a>) ;',
        'par téléphone au 09 69 39 00 00 ;',
        'par courrier gratuit, sans affranchissement : Défenseur des droits, Libre réponse 71120, ' +
          '75342 Paris CEDEX 07.',
      ]),
  };
}

/** The page `id` written from `facts`. */
export function generatedLegalPage(id: 'mentions' | 'rgpd' | 'accessibilite', facts: LegalFacts): GeneratedLegalPage {
  return { mentions, rgpd, accessibilite }[id](facts);
}
