import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import PreRegistrationForm from '../../src/features/admissions/PreRegistrationForm';
import { countryOptions } from '../../src/features/forms/countries';
import { $banner } from '../../src/stores/banner';
import { currentConsent } from '../../src/features/forms/form-rules';

const countries = countryOptions();

function setup() {
  const user = userEvent.setup();
  render(
    <PreRegistrationForm
      countries={countries}
      privacyHref="/rgpd"
      replyDelay="Nous vous recontactons sous quinze jours."
    />,
  );
  return { user, submit: () => user.click(screen.getByRole('button', { name: 'Inscrire mon enfant' })) };
}

/**
 * Fills every field validly, each value pasted at once (typing is tested once, on the child's first name): key by key,
 * these hundred characters cost seconds on a loaded machine and test nothing more.
 */
async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  const fields: [RegExp | string, string][] = [
    [/Prénom de l’enfant/, 'Léa'],
    [/Nom de l’enfant/, 'Martin'],
    [/Quelques mots/, 'Elle adore dessiner.'],
    [/Votre prénom/, 'Sophie'],
    [/Votre nom/, 'Martin'],
    [/Votre email/, 'sophie@exemple.fr'],
    [/Votre numéro de téléphone/, '06 12 34 56 78'],
    ['Adresse', '3 rue des Lilas'],
    ['Code postal', '69007'],
    ['Ville', 'Lyon'],
  ];
  for (const [label, value] of fields) {
    await user.click(screen.getByLabelText(label));
    await user.paste(value);
  }
  await user.selectOptions(screen.getByLabelText('Classe souhaitée'), 'CP');
  await user.selectOptions(screen.getByLabelText('Pays'), 'BE');
  await user.click(screen.getByLabelText(/J’accepte/));
}

const typed = {
  enfantPrenom: 'Léa',
  enfantNom: 'Martin',
  enfantNaissance: '',
  classeSouhaitee: 'CP',
  infos: 'Elle adore dessiner.',
  parentPrenom: 'Sophie',
  parentNom: 'Martin',
  email: 'sophie@exemple.fr',
  telephone: '06 12 34 56 78',
  adresse: '3 rue des Lilas',
  postal: '69007',
  ville: 'Lyon',
  pays: 'BE',
  consentement: true,
};

describe('PreRegistrationForm', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => {
    $banner.set(null);
    vi.unstubAllGlobals();
  });

  it('has labelled fields, the address grouped, France first and selected', () => {
    setup();
    expect(screen.getByRole('group', { name: 'Votre adresse' })).toContainElement(screen.getByLabelText('Ville'));
    const pays = screen.getByLabelText('Pays') as HTMLSelectElement;
    expect(pays.options[0]?.textContent).toBe('France');
    expect(pays.value).toBe('FR');
    expect(screen.getByRole('link', { name: /données personnelles/ })).toHaveAttribute('href', '/rgpd');
  });

  it('shows each error next to its field and in a focused summary linking to each field', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user, submit } = setup();
    await submit();
    const summary = screen.getByRole('heading', { name: 'Il y a un problème' }).parentElement!;
    expect(summary).toHaveFocus();
    expect(document.title).toMatch(/^Erreur : /);
    expect([...summary.querySelectorAll('a')].map((link) => link.textContent)).toEqual([
      'Merci d’indiquer le prénom de votre enfant',
      'Merci d’indiquer le nom de votre enfant',
      'Merci d’indiquer votre prénom',
      'Merci d’indiquer votre nom',
      'Merci de saisir un email valide',
      'Votre consentement est obligatoire pour pré-inscrire votre enfant',
    ]);
    const child = screen.getByLabelText(/Prénom de l’enfant/);
    expect(child).toHaveAccessibleDescription('Merci d’indiquer le prénom de votre enfant');
    expect(child).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('link', { name: 'Merci d’indiquer votre nom' }));
    expect(screen.getByLabelText(/Votre nom/)).toHaveFocus();
    await user.click(screen.getByRole('link', { name: 'Merci d’indiquer le prénom de votre enfant' }));
    expect(child).toHaveFocus();
    expect(screen.getByLabelText(/Votre email/)).toHaveAccessibleDescription('Merci de saisir un email valide');
    expect(screen.getByLabelText(/J’accepte/)).toHaveAccessibleDescription(
      'Votre consentement est obligatoire pour pré-inscrire votre enfant',
    );
    // The banner shows the first, silently: the focused summary is what a screen reader reads.
    expect($banner.get()).toMatchObject({ text: 'Merci d’indiquer le prénom de votre enfant', announce: false });
    expect(fetch).not.toHaveBeenCalled();
    await user.type(child, 'Léa');
    expect(child).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('link', { name: 'Merci d’indiquer le prénom de votre enfant' })).toBeNull();
  });

  it('refuses a message typed as a first name beside its field, and sends nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user, submit } = setup();
    await fillValid(user);
    const child = screen.getByLabelText(/Prénom de l’enfant/);
    await user.clear(child);
    await user.click(child);
    await user.paste('Votre dossier est refusé. Appelez le 08 99 00 00 00');
    await submit();
    const message =
      'Écrivez seulement un nom : des lettres, des espaces, des traits d’union ou des apostrophes ' +
      '(60 caractères au plus)';
    expect(child).toHaveAccessibleDescription(message);
    expect(screen.getByRole('link', { name: message })).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses a phone number that is not one beside its field, and sends nothing', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user, submit } = setup();
    await fillValid(user);
    const phone = screen.getByLabelText(/Votre numéro de téléphone/);
    await user.clear(phone);
    await user.type(phone, '06 12 34');
    await submit();
    const message = 'Ce numéro de téléphone n’est pas valide. Vérifiez-le, par exemple 06 12 34 56 78.';
    expect(phone).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(screen.getByRole('link', { name: message })).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('requires the consent box, whatever else is filled in', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user, submit } = setup();
    await fillValid(user);
    await user.click(screen.getByLabelText(/J’accepte/));
    await submit();
    expect($banner.get()?.text).toBe('Votre consentement est obligatoire pour pré-inscrire votre enfant');
    expect(screen.getByRole('link', { name: 'Votre consentement est obligatoire pour pré-inscrire votre enfant' }));
    expect(screen.getByLabelText(/J’accepte/)).toHaveAccessibleDescription(
      'Votre consentement est obligatoire pour pré-inscrire votre enfant',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it("sends every field, says 'Vous avez été inscrit' in a lasting panel with the reference", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ ok: true, message: 'Vous avez été inscrit', reference: '4829 1375' }), {
          status: 200,
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const { user, submit } = setup();
    await fillValid(user);
    await submit();
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/preinscription');
    expect(JSON.parse(init.body as string)).toEqual({
      ...typed,
      consentementVersion: currentConsent('preinscription').version,
      envoi: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect($banner.get()).toMatchObject({ text: 'Vous avez été inscrit', announce: false });
    expect(screen.queryByRole('status')).toBeNull();
    const panel = screen.getByRole('heading', { name: 'Pré-inscription reçue' }).closest('.confirmation');
    expect(panel).toHaveFocus();
    expect(panel).toHaveTextContent('Votre numéro de référence : 4829 1375');
    expect(panel).toHaveTextContent(
      'Vous avez été inscrit. Votre demande de pré-inscription est enregistrée et ne vous engage à rien. Nous vous ' +
        'recontactons sous quinze jours.',
    );
    expect(panel).not.toHaveTextContent('pas encore inscrit');
    expect(panel).toHaveTextContent('Elle vous recontacte pour convenir d’une rencontre');
    // Ready for a brother or sister: the child's fields are empty, the parent's kept.
    await user.click(screen.getByRole('button', { name: 'Pré-inscrire un autre enfant' }));
    expect(screen.getByLabelText(/Prénom de l’enfant/)).toHaveValue('');
    expect(screen.getByLabelText(/Votre email/)).toHaveValue('sophie@exemple.fr');
    expect(sessionStorage.getItem('preinscription-brouillon')).toBeNull();
  });

  it('on failure shows the error as the message and keeps every field', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ ok: false, message: 'Le service est momentanément indisponible.' }), {
            status: 503,
          }),
      ),
    );
    const { user, submit } = setup();
    await fillValid(user);
    await submit();
    expect($banner.get()?.text).toBe('Le service est momentanément indisponible.');
    const summary = screen.getByRole('heading', { name: 'Il y a un problème' }).parentElement!;
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('Le service est momentanément indisponible.');
    expect(screen.getByLabelText(/Prénom de l’enfant/)).toHaveValue('Léa');
    expect(screen.getByLabelText(/Quelques mots/)).toHaveValue('Elle adore dessiner.');
    expect(screen.getByLabelText(/Votre email/)).toHaveValue('sophie@exemple.fr');
    expect(screen.getByLabelText('Pays')).toHaveValue('BE');
    expect(screen.getByLabelText(/J’accepte/)).toBeChecked();
  });

  it('retries the same draft with the same submission key, and a changed draft with a new one', async () => {
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ ok: false, message: 'Indisponible.' }), { status: 503 }),
    );
    vi.stubGlobal('fetch', fetch);
    const { user, submit } = setup();
    await fillValid(user);
    await submit();
    await submit();
    await user.type(screen.getByLabelText(/Ville/), 'x');
    await submit();
    const keys = fetch.mock.calls.map(
      (call) => JSON.parse((call as unknown as [string, RequestInit])[1].body as string).envoi,
    );
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('saves the draft as the parent types and restores it after a reload of the tab', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText(/Prénom de l’enfant/), 'Noé');
    expect(JSON.parse(sessionStorage.getItem('preinscription-brouillon') ?? '{}')).toMatchObject({
      enfantPrenom: 'Noé',
    });
    cleanup();
    sessionStorage.setItem('preinscription-brouillon', JSON.stringify({ enfantPrenom: 'Noé', ville: 'Lyon' }));
    render(
      <PreRegistrationForm
        countries={countries}
        privacyHref="/rgpd"
        replyDelay="Nous vous recontactons sous quinze jours."
      />,
    );
    expect(await screen.findByDisplayValue('Noé')).toBeVisible();
    expect(screen.getByLabelText('Ville')).toHaveValue('Lyon');
  });
});
