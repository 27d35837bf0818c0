/** The mail settings « Publier » reports (src/features/mail/transport.server.ts): what is missing, in French. */
import { describe, expect, it } from 'vitest';
import { mailSettings } from '../../src/features/mail/transport.server';

describe('mailSettings', () => {
  it('says that nothing is sent without SMTP_URL, and what else is missing', () => {
    expect(mailSettings({}).problems).toEqual([
      'SMTP_URL n’est pas défini : aucun email n’est envoyé, ils attendent dans la file.',
      'MAIL_FROM doit être l’expéditeur des emails, par exemple « Association <site@exemple.fr> ».',
      'ASSOCIATION_EMAIL doit être l’adresse de l’équipe : elle ne reçoit aucun avis.',
    ]);
  });

  it('accepts a complete configuration, smtps:// included', () => {
    const settings = mailSettings({
      SMTP_URL: 'smtps://utilisateur:secret@smtp.exemple.fr:465',
      MAIL_FROM: 'Les Petits Pas <site@exemple.fr>',
      ASSOCIATION_EMAIL: 'equipe@exemple.fr',
    });
    expect(settings).toMatchObject({
      problems: [],
      from: 'Les Petits Pas <site@exemple.fr>',
      staff: 'equipe@exemple.fr',
    });
  });

  it.each([
    ['an SMTP_URL of another scheme', { SMTP_URL: 'http://smtp.exemple.fr' }, 'SMTP_URL doit être de la forme'],
    ['a sender with a line break', { MAIL_FROM: 'A <a@exemple.fr>\r\nBcc: b@exemple.fr' }, 'MAIL_FROM doit être'],
    ['a staff address that is two', { ASSOCIATION_EMAIL: 'a@exemple.fr, b@exemple.fr' }, 'ASSOCIATION_EMAIL doit'],
  ])('refuses %s', (_label, variables, problem) => {
    const settings = mailSettings({
      SMTP_URL: 'smtp://smtp.exemple.fr:587',
      MAIL_FROM: 'Site <site@exemple.fr>',
      ASSOCIATION_EMAIL: 'equipe@exemple.fr',
      ...variables,
    });
    expect(settings.problems).toEqual([expect.stringContaining(problem)]);
  });
});
