import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DonationForm from '../../src/islands/DonationForm';
import { countryOptions } from '../../src/lib/countries';
import { $banner, clearMessage } from '../../src/stores/banner';

const mount = vi.fn();
const createEmbeddedCheckoutPage = vi.fn(async () => ({ mount, destroy: vi.fn(), unmount: vi.fn() }));
const loadStripe = vi.fn(async () => ({ createEmbeddedCheckoutPage }));
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }));

const countries = countryOptions();
const TEST_KEY = ['pk', 'test', 'exemple'].join('_');
const plain = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

function setup(publishableKey = TEST_KEY) {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  render(<DonationForm publishableKey={publishableKey} countries={countries} privacyHref="/rgpd" />);
  return { user };
}

async function fillDonor(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/Votre prénom/), 'Paul');
  await user.type(screen.getByLabelText(/Votre nom/), 'Durand');
  await user.type(screen.getByLabelText(/Votre email/), 'paul@exemple.fr');
  await user.type(screen.getByLabelText(/^Adresse/), '8 quai Rambaud');
  await user.type(screen.getByLabelText(/Code postal/), '69002');
  await user.type(screen.getByLabelText(/^Ville/), 'Lyon');
}

const amounts = () => screen.getByRole('radiogroup', { name: 'Montants proposés' });
const checkedAmount = () =>
  plain(within(amounts()).getByRole('radio', { checked: true }).parentElement?.textContent ?? '');
const amount = (euros: string) => within(amounts()).getByRole('radio', { name: new RegExp(`^${euros}\\s€$`) });

describe('DonationForm', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => {
    clearMessage();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    vi.clearAllMocks();
  });

  it('cycles the amount with wrap-around both ways, and the tax line follows', async () => {
    const { user } = setup();
    expect(screen.getByRole('radiogroup', { name: 'Montants proposés' })).toBeVisible();
    expect(checkedAmount()).toBe('25 €');
    expect(plain(screen.getByText(/ne vous coûte que/).textContent)).toBe(
      'Votre don de 25 € ne vous coûte que 8,50 € après réduction d’impôt',
    );
    await user.click(screen.getByRole('button', { name: 'Montant précédent' }));
    await user.click(screen.getByRole('button', { name: 'Montant précédent' }));
    expect(checkedAmount()).toBe('10 000 €');
    expect(plain(screen.getByText(/ne vous coûte que/).textContent)).toBe(
      'Votre don de 10 000 € ne vous coûte que 3 400 € après réduction d’impôt',
    );
    await user.click(screen.getByRole('button', { name: 'Montant suivant' }));
    expect(checkedAmount()).toBe('10 €');
    await user.click(amount('50'));
    expect(plain(screen.getByText(/ne vous coûte que/).textContent)).toBe(
      'Votre don de 50 € ne vous coûte que 17 € après réduction d’impôt',
    );
    expect(plain(screen.getByRole('button', { name: /Faire un don de/ }).textContent)).toBe('Faire un don de 50 €');
  });

  it('says it is a test version with a pk_test_ key', () => {
    setup();
    expect(screen.getByText(/aucun paiement réel n’est effectué/)).toBeVisible();
    expect(screen.getByText('4242 4242 4242 4242')).toBeVisible();
  });

  it('without a key, still shows the picker and says online payment is not configured', () => {
    render(<DonationForm publishableKey="" countries={countries} privacyHref="/rgpd" />);
    expect(screen.getByText(/Le paiement en ligne n’est pas configuré sur ce site/)).toBeVisible();
    expect(screen.queryByRole('button', { name: /Faire un don de/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Montant suivant' })).toBeVisible();
  });

  it('validates the draft in French before calling the server', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: /Faire un don de/ }));
    expect(screen.getByLabelText(/Votre prénom/)).toHaveFocus();
    expect(screen.getByLabelText(/Votre prénom/)).toHaveAccessibleDescription('Merci d’indiquer votre prénom');
    expect(screen.getByLabelText(/Votre email/)).toHaveAccessibleDescription('Merci de saisir un email valide');
    expect($banner.get()?.text).toBe('Merci d’indiquer votre prénom');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('embedded: posts the draft with the amount INDEX, shows the loading indicator, mounts Stripe', async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await user.click(amount('100'));
    await fillDonor(user);
    await user.click(screen.getByRole('button', { name: /Faire un don de/ }));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/create-checkout-session');
    expect(JSON.parse(init.body as string)).toEqual({
      moyen: 'integre',
      somme: 3,
      prenom: 'Paul',
      nom: 'Durand',
      email: 'paul@exemple.fr',
      adresse: '8 quai Rambaud',
      postal: '69002',
      ville: 'Lyon',
      pays: 'FR',
    });
    expect(screen.getByText('Préparation du paiement sécurisé…')).toBeVisible();
    await act(async () =>
      answer(new Response(JSON.stringify({ clientSecret: 'cs_test_1_secret_2' }), { status: 200 })),
    );
    await vi.waitFor(() => expect(mount).toHaveBeenCalled());
    expect(loadStripe).toHaveBeenCalledWith(TEST_KEY);
    const options = (
      createEmbeddedCheckoutPage.mock.calls[0] as unknown as [{ fetchClientSecret: () => Promise<string> }]
    )[0];
    expect(await options.fetchClientSecret()).toBe('cs_test_1_secret_2');
    expect(screen.getByRole('region', { name: 'Paiement sécurisé par Stripe' })).toBeVisible();
    expect(screen.queryByText('Préparation du paiement sécurisé…')).toBeNull();
  });

  it('the loading indicator shows for at most 4 s', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    const { user } = setup();
    await fillDonor(user);
    await user.click(screen.getByRole('button', { name: /Faire un don de/ }));
    expect($banner.get()).toBeNull();
    expect(await screen.findByText('Préparation du paiement sécurisé…')).toBeVisible();
    act(() => vi.advanceTimersByTime(3900));
    expect(screen.getByText('Préparation du paiement sécurisé…')).toBeVisible();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.queryByText('Préparation du paiement sécurisé…')).toBeNull();
  });

  it('link: opens the tab during the click, then points it at the returned URL', async () => {
    const tab = { location: { href: '' }, opener: {}, close: vi.fn() };
    const open = vi.fn(() => tab);
    vi.stubGlobal('open', open);
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ url: 'https://checkout.stripe.com/c/pay/cs_test_9' })),
    );
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await fillDonor(user);
    await user.click(screen.getByLabelText(/page sécurisée de Stripe/));
    await user.click(screen.getByRole('button', { name: /Faire un don de/ }));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect((fetch.mock.calls[0] as unknown as [string])[0]).toBe('/api/don?id=1&email=paul%40exemple.fr');
    await vi.waitFor(() => expect(tab.location.href).toBe('https://checkout.stripe.com/c/pay/cs_test_9'));
    expect(tab.opener).toBeNull();
  });

  it('link: a server error closes the tab, is logged and shown in French', async () => {
    const tab = { location: { href: '' }, opener: {}, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () => new Response(JSON.stringify({ message: 'Le service de paiement ne répond pas.' }), { status: 502 }),
      ),
    );
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = setup();
    await fillDonor(user);
    await user.click(screen.getByLabelText(/page sécurisée de Stripe/));
    await user.click(screen.getByRole('button', { name: /Faire un don de/ }));
    await vi.waitFor(() => expect(tab.close).toHaveBeenCalled());
    expect(log).toHaveBeenCalled();
    expect($banner.get()?.text).toBe('Le service de paiement ne répond pas.');
    expect(screen.getByLabelText(/Votre email/)).toHaveValue('paul@exemple.fr');
    log.mockRestore();
  });

  it('names every control in French', () => {
    setup();
    const group = screen.getByRole('group', { name: 'Comment souhaitez-vous payer ?' });
    expect(within(group).getAllByRole('radio')).toHaveLength(2);
  });
});
