/**
 * A letter's mail as built for the outbox (letter-mails.server.tsx): the editors' HTML narrowed for mail clients
 * (their own tags only, inline styles, site paths made absolute), and each subscriber's mail with their own link in
 * both headers, the HTML and the plain-text part.
 */
import { describe, expect, test } from 'vitest';
import { letterBodyHtml, letterMails, letterTestMail } from '../../src/features/newsletter/letter-mails.server';

const identity = {
  name: 'Les Petits Pas Ensemble',
  addressLines: ['1 rue de la Paix', '75000 Paris'],
  siteUrl: 'https://asso.example',
};

describe('letterBodyHtml', () => {
  test('keeps the editor’s tags with the mail’s styles, makes site paths absolute, drops pictures and frames', () => {
    const html = letterBodyHtml(
      '<h3 style="color:red">Fête</h3><h4>Programme</h4><p style="color:red">Venez <strong style="font-size:80px">nombreux</strong> à ' +
        '<a href="/ecole" target="_blank">l’école</a></p><img src="https://a.example/b.png">' +
        '<iframe src="https://www.youtube-nocookie.com/embed/x"></iframe><ul><li>gâteaux</li></ul>',
      'https://asso.example',
    );
    expect(html).toContain('<h2 style="font-size:20px;');
    expect(html).toContain('<p style="font-size:18px;line-height:27px;');
    expect(html).not.toContain('color:red');
    expect(html).toContain('<strong>nombreux</strong>');
    expect(html).toContain('<a href="https://asso.example/ecole" style="color:#0b4f5c;text-decoration:underline">');
    expect(html).not.toMatch(/<img|<iframe|target=/);
    expect(html).toContain('<li style="margin:0 0 8px">gâteaux</li>');
    expect(html).toMatch(/<h3 style="[^"]*font-size:18px[^"]*">Programme<\/h3>/);
  });

  test('for a page’s preview under its own <h2>: intertitles as <h3>, <h4>, no inline style', () => {
    expect(
      letterBodyHtml('<h3 style="color:red">Fête</h3><h4>Programme</h4>', 'https://asso.example', { forPage: true }),
    ).toBe('<h3>Fête</h3><h4>Programme</h4>');
  });
});

describe('letterMails', () => {
  test('each subscriber’s mail carries their own link in List-Unsubscribe, the HTML and the text', async () => {
    const to = await letterMails({
      identity,
      letterId: 'AbCdEfGhIjKlMnOpQrSt',
      objet: 'Lettre de mars',
      contenu: '<p>Bonjour à tous</p>',
    });
    const token = `${'a'.repeat(64)}.${'B'.repeat(43)}`;
    const mail = to({ id: 'a'.repeat(64), email: 'marie@exemple.fr', token });
    const link = `https://asso.example/newsletter/desinscription?jeton=${token}`;
    expect(mail).toMatchObject({
      id: `lettres-AbCdEfGhIjKlMnOpQrSt-${'a'.repeat(64)}`,
      kind: 'lettre',
      to: 'marie@exemple.fr',
      subject: 'Lettre de mars',
      headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain('Bonjour à tous');
    expect(mail.text).toContain('Bonjour à tous');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain('Se désinscrire');
    expect(`${mail.html}${mail.text}`).not.toContain('JETON-DU-DESTINATAIRE');
    const other = to({ id: 'c'.repeat(64), email: 'paul@exemple.fr', token: 'autre' });
    expect(other.html).not.toContain(token);
  });

  test('the test goes to its sender, « [Test] » first, with a link that unsubscribes nobody', async () => {
    const mail = await letterTestMail({
      identity,
      letterId: 'AbCdEfGhIjKlMnOpQrSt',
      objet: 'Lettre de mars',
      contenu: '<p>Bonjour</p>',
      email: 'admin@demo.test',
      minute: 42,
    });
    expect(mail).toMatchObject({
      id: 'lettres-AbCdEfGhIjKlMnOpQrSt-test-42',
      kind: 'lettre-test',
      to: 'admin@demo.test',
      subject: '[Test] Lettre de mars',
      headers: { 'List-Unsubscribe': '<https://asso.example/newsletter/desinscription>' },
    });
  });
});
