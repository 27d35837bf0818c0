import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DonationForm, { STRIPE_SCRIPT_FAILED } from '../../src/features/donations/checkout/DonationForm';
import { $banner } from '../../src/stores/banner';
import { OWN_AMOUNT_MESSAGES } from '../../src/features/donations/checkout/donations';
import { draftCents, draftOfForm, paymentDraftSchema } from '../../src/features/donations/checkout/payment-draft';

const mount = vi.fn();
const createEmbeddedCheckoutPage = vi.fn(async () => ({ mount, destroy: vi.fn(), unmount: vi.fn() }));
const loadStripe = vi.fn(async () => ({ createEmbeddedCheckoutPage }));
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe }));

const TEST_KEY = ['pk', 'test', 'exemple'].join('_');
const plain = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

function setup(publishableKey = TEST_KEY) {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  render(<DonationForm publishableKey={publishableKey} privacyHref="/rgpd" />);
  return { user };
}

/**
 * The island's server HTML in the page, as client:interaction leaves it until the visitor's first act: `hydrate()`
 * hands it to React, `remove()` unmounts it and takes it out of the page.
 */
async function serverRendered() {
  const { renderToString } = await import('react-dom/server');
  const { hydrateRoot } = await import('react-dom/client');
  const island = <DonationForm publishableKey={TEST_KEY} privacyHref="/rgpd" />;
  const container = document.createElement('div');
  container.innerHTML = renderToString(island);
  document.body.append(container);
  let root: ReturnType<typeof hydrateRoot> | undefined;
  return {
    container,
    hydrate: async () => {
      root = await act(async () => hydrateRoot(container, island));
    },
    remove: () => {
      if (root) act(() => root?.unmount());
      container.remove();
    },
  };
}

const amounts = () => screen.getByRole('radiogroup', { name: 'Montants proposés' });
const checkedAmount = () =>
  plain(within(amounts()).getByRole('radio', { checked: true }).parentElement?.textContent ?? '');
const amount = (euros: string) => within(amounts()).getByRole('radio', { name: new RegExp(`^${euros}\\s€$`) });

describe('DonationForm', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => {
    $banner.set(null);
    sessionStorage.clear();
    vi.unstubAllGlobals();
    vi.useRealTimers();
    vi.clearAllMocks();
  });

  it('starts at 25 €, and the tax line and the button follow the chosen amount', async () => {
    const { user } = setup();
    expect(screen.getByRole('radiogroup', { name: 'Montants proposés' })).toBeVisible();
    expect(checkedAmount()).toBe('25 €');
    expect(plain(screen.getByText(/ne vous coûte que/).textContent)).toBe(
      'Votre don de 25 € ne vous coûte que 8,50 € après réduction d’impôt',
    );
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
    render(<DonationForm publishableKey="" privacyHref="/rgpd" />);
    expect(screen.getByText(/Le paiement en ligne n’est pas configuré sur ce site/)).toBeVisible();
    expect(screen.queryByRole('button', { name: /Faire un don de/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Montant suivant' })).toBeVisible();
  });

  it('asks for no personal detail on the page: Stripe does', () => {
    setup();
    expect(screen.queryAllByRole('textbox')).toHaveLength(0);
    expect(screen.getByText(/Stripe, qui vous demandera votre nom, votre email et votre adresse/)).toBeVisible();
  });

  it('embedded, in one click: posts the amount INDEX, shows the loading indicator, mounts Stripe', async () => {
    let answer: (response: Response) => void = () => {};
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await user.click(amount('100'));
    await user.click(screen.getByRole('button', { name: /^Faire un don de 100\s€$/ }));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/create-checkout-session');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ moyen: 'integre', somme: 3, frequence: 'ponctuel' });
    expect(screen.getByText('Préparation du paiement sécurisé…')).toBeVisible();
    await act(async () =>
      answer(new Response(JSON.stringify({ clientSecret: 'cs_test_1_secret_2' }), { status: 200 })),
    );
    await waitFor(() => expect(mount).toHaveBeenCalled());
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
    await user.click(screen.getByRole('button', { name: /Faire un don de/ }));
    expect($banner.get()).toBeNull();
    expect(await screen.findByText('Préparation du paiement sécurisé…')).toBeVisible();
    act(() => vi.advanceTimersByTime(3900));
    expect(screen.getByText('Préparation du paiement sécurisé…')).toBeVisible();
    act(() => vi.advanceTimersByTime(100));
    expect(screen.queryByText('Préparation du paiement sécurisé…')).toBeNull();
  });

  it('link, in one click: opens the tab during the click, then points it at the returned URL', async () => {
    const tab = { location: { href: '' }, opener: {}, close: vi.fn() };
    const open = vi.fn(() => tab);
    vi.stubGlobal('open', open);
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ url: 'https://checkout.stripe.com/c/pay/cs_test_9' })),
    );
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await user.click(
      screen.getByRole('button', { name: /^Payer sur la page sécurisée de Stripe\s+\(nouvel onglet\)$/ }),
    );
    expect(open).toHaveBeenCalledWith('', '_blank');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/don');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({ moyen: 'lien', somme: 1, frequence: 'ponctuel' });
    await waitFor(() => expect(tab.location.href).toBe('https://checkout.stripe.com/c/pay/cs_test_9'));
    expect(tab.opener).toBeNull();
    // Kept for the cancel page (the new tab starts with a copy of sessionStorage).
    expect(JSON.parse(sessionStorage.getItem('don:choix') ?? 'null')).toEqual({ somme: 1, frequence: 'ponctuel' });
  });

  it('link: a server error closes the tab, is logged and stays in the picker, focused, in French', async () => {
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
    await user.click(screen.getByRole('button', { name: /page sécurisée de Stripe/ }));
    await waitFor(() => expect(tab.close).toHaveBeenCalled());
    expect(log).toHaveBeenCalled();
    expect($banner.get()).toMatchObject({ text: 'Le service de paiement ne répond pas.', announce: false });
    const summary = screen.getByRole('heading', { name: 'Il y a un problème' }).parentElement!;
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('Le service de paiement ne répond pas.');
    expect(document.title).toMatch(/^Erreur : /);
    log.mockRestore();
  });

  it('spec §4: the stepper wraps in both directions and says each new amount once, politely', async () => {
    const { user } = setup();
    const previous = screen.getByRole('button', { name: 'Montant précédent' });
    const next = screen.getByRole('button', { name: 'Montant suivant' });
    const said = () =>
      screen.getAllByRole('status').filter((region) => region.closest('.donation__stepper') && region.textContent);
    expect(said()).toEqual([]);
    await user.click(previous);
    expect(screen.getByRole('radio', { name: /^10\s€$/ })).toBeChecked();
    // At the first amount, « Montant précédent » goes to the last one.
    await user.click(previous);
    expect(screen.getByRole('radio', { name: /^10\s000\s€$/ })).toBeChecked();
    expect(previous).not.toHaveAttribute('aria-disabled');
    expect(said().map((region) => plain(region.textContent))).toEqual(['10 000 €']);
    expect(plain(screen.getByRole('button', { name: /Faire un don de/ }).textContent)).toBe('Faire un don de 10 000 €');
    // At the last amount, « Montant suivant » goes to the first one.
    await user.click(next);
    expect(screen.getByRole('radio', { name: /^10\s€$/ })).toBeChecked();
    expect(next).not.toHaveAttribute('aria-disabled');
    expect(said().map((region) => plain(region.textContent))).toEqual(['10 €']);
    // One polite region says it: the tax line, which repeats the amount, is not live.
    const live = [...document.querySelectorAll('[aria-live], [role="status"], [role="alert"]')].filter((region) =>
      plain(region.textContent).includes('10 €'),
    );
    expect(live).toHaveLength(1);
    expect(live[0]).toHaveAttribute('role', 'status');
    // The radio list stays beside the stepper; a radio chosen says itself, the stepper's region goes quiet.
    await user.click(amount('50'));
    expect(said()).toEqual([]);
    await user.click(next);
    expect(said().map((region) => plain(region.textContent))).toEqual(['100 €']);
  });

  it('monthly: the stepper says the amount « par mois »', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('radio', { name: 'Don mensuel' }));
    await user.click(screen.getByRole('button', { name: 'Montant suivant' }));
    expect(screen.getByText(/^50\s€ par mois$/, { selector: '[role="status"]' })).toBeInTheDocument();
  });

  it('monthly: the labels, the tax line and the draft say "par mois"', async () => {
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await user.click(screen.getByRole('radio', { name: 'Don mensuel' }));
    expect(screen.getByRole('group', { name: 'Montant de votre don mensuel' })).toBeVisible();
    expect(plain(screen.getByText(/ne vous coûte que/).textContent)).toBe(
      'Votre don de 25 € par mois ne vous coûte que 8,50 € par mois après réduction d’impôt',
    );
    await user.click(screen.getByRole('button', { name: /^Donner 25\s€ par mois$/ }));
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({ moyen: 'integre', somme: 1, frequence: 'mensuel' });
  });

  it('restores the choice kept in sessionStorage (the cancel page)', () => {
    sessionStorage.setItem('don:choix', JSON.stringify({ somme: 4, frequence: 'mensuel' }));
    setup();
    expect(checkedAmount()).toBe('250 €');
    expect(screen.getByRole('radio', { name: 'Don mensuel' })).toBeChecked();
    expect(screen.getByRole('button', { name: /^Donner 250\s€ par mois$/ })).toBeVisible();
  });

  it('ignores a kept choice it does not offer', () => {
    sessionStorage.setItem('don:choix', JSON.stringify({ somme: 42, frequence: 'mensuel' }));
    setup();
    expect(checkedAmount()).toBe('25 €');
    expect(screen.getByRole('radio', { name: 'Don ponctuel' })).toBeChecked();
  });

  it('names every control in French', () => {
    setup();
    const group = screen.getByRole('group', { name: 'Type de don' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['ponctuel', 'mensuel']);
  });

  describe('« Autre montant »', () => {
    const taxLine = () => plain(screen.getByText(/après réduction d’impôt|Indiquez votre montant/).textContent);
    const field = () => screen.getByRole('textbox', { name: /Votre montant/ });

    it('sits beside the ten amounts; what is typed in euros sets the tax line, the button and the draft', async () => {
      const fetch = vi.fn(() => new Promise<Response>(() => {}));
      vi.stubGlobal('fetch', fetch);
      const { user } = setup();
      expect(within(amounts()).getAllByRole('radio')).toHaveLength(11);
      await user.click(within(amounts()).getByRole('radio', { name: 'Autre montant' }));
      expect(taxLine()).toBe('Indiquez votre montant : nous vous disons ce qu’il vous coûte après réduction d’impôt.');
      await user.type(field(), '37,50');
      expect(taxLine()).toBe('Votre don de 37,50 € ne vous coûte que 12,75 € après réduction d’impôt');
      await user.click(screen.getByRole('button', { name: /^Faire un don de 37,50\s€$/ }));
      const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('/create-checkout-session');
      // The euros as typed: the server computes the cents.
      expect(JSON.parse(init.body as string)).toEqual({
        moyen: 'integre',
        autreMontant: '37,50',
        frequence: 'ponctuel',
      });
    });

    it('a monthly gift of 15 €: the field, the tax line and the button say « par mois »', async () => {
      const { user } = setup();
      await user.click(screen.getByRole('radio', { name: 'Don mensuel' }));
      await user.click(within(amounts()).getByRole('radio', { name: 'Autre montant' }));
      await user.type(screen.getByRole('textbox', { name: 'Votre montant par mois, en euros' }), '15');
      expect(taxLine()).toBe('Votre don de 15 € par mois ne vous coûte que 5,10 € par mois après réduction d’impôt');
      expect(screen.getByRole('button', { name: /^Donner 15\s€ par mois$/ })).toBeVisible();
    });

    it.each([
      ['0,50', 'Le montant minimum d’un don est de 1 €'],
      ['', 'Indiquez le montant de votre don en euros, par exemple 37 ou 37,50'],
      ['trente', 'Indiquez un montant en euros, en chiffres : par exemple 37 ou 37,50'],
      ['250000', OWN_AMOUNT_MESSAGES.tooLarge],
    ])('« %s » sends nothing: the field says why, in French, and takes the focus', async (typed, message) => {
      const fetch = vi.fn();
      vi.stubGlobal('fetch', fetch);
      const { user } = setup();
      await user.click(within(amounts()).getByRole('radio', { name: 'Autre montant' }));
      if (typed) await user.type(field(), typed);
      await user.click(screen.getByRole('button', { name: /^Faire un don/ }));
      expect(fetch).not.toHaveBeenCalled();
      expect(field()).toHaveFocus();
      expect(field()).toHaveAttribute('aria-invalid', 'true');
      expect(field()).toHaveAccessibleDescription(new RegExp(message.replace(/[.()]/g, '\\$&')));
    });

    it('the stepper goes from the amount typed to the proposed amount beside it, and wraps', async () => {
      const { user } = setup();
      await user.click(within(amounts()).getByRole('radio', { name: 'Autre montant' }));
      await user.type(field(), '37');
      await user.click(screen.getByRole('button', { name: 'Montant suivant' }));
      expect(checkedAmount()).toBe('50 €');
      await user.click(within(amounts()).getByRole('radio', { name: 'Autre montant' }));
      expect(field()).toHaveValue('37');
      await user.click(screen.getByRole('button', { name: 'Montant précédent' }));
      expect(checkedAmount()).toBe('25 €');
      await user.click(within(amounts()).getByRole('radio', { name: 'Autre montant' }));
      await user.clear(field());
      await user.type(field(), '20000');
      await user.click(screen.getByRole('button', { name: 'Montant suivant' }));
      expect(checkedAmount()).toBe('10 €');
    });

    it('is kept for the cancel page', async () => {
      sessionStorage.setItem('don:choix', JSON.stringify({ autreMontant: '42', frequence: 'ponctuel' }));
      setup();
      expect(within(amounts()).getByRole('radio', { name: 'Autre montant' })).toBeChecked();
      expect(field()).toHaveValue('42');
      expect(screen.getByRole('button', { name: /^Faire un don de 42\s€$/ })).toBeVisible();
    });
  });

  it('hydrated after the donor chose on the server’s form: those radios count, storage or not', async () => {
    // The server's HTML (client:interaction hydrates it at the first act), two radios chosen before React took over;
    // sessionStorage refuses to keep anything (private browsing): the form adopts them on its own.
    const refused = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    const { container, hydrate, remove } = await serverRendered();
    within(container)
      .getByRole('radio', { name: /^250\s€$/ })
      .click();
    within(container).getByRole('radio', { name: 'Don mensuel' }).click();
    await hydrate();
    try {
      expect(plain(within(container).getByRole('button', { name: /^Donner/ }).textContent)).toBe(
        'Donner 250 € par mois',
      );
      expect(within(container).getByRole('radio', { name: /^250\s€$/ })).toBeChecked();
      expect(within(container).getByRole('radio', { name: 'Don mensuel' })).toBeChecked();
    } finally {
      remove();
      refused.mockRestore();
    }
  });

  it('the server’s HTML is a form that pays without JavaScript; once hydrated, the buttons are the script’s', async () => {
    const { container, hydrate, remove } = await serverRendered();
    const form = container.querySelector('form') as HTMLFormElement;
    expect(form.method).toBe('post');
    expect(form.getAttribute('action')).toBe('/api/don');
    within(container).getByRole('radio', { name: 'Don mensuel' }).click();
    within(container)
      .getByRole('radio', { name: /^50\s€$/ })
      .click();
    // No amount in the label: a radio chosen before hydration would make it wrong.
    const embedded = within(container).getByRole('button', { name: 'Faire un don' });
    const hosted = within(container).getByRole('button', { name: /^Payer sur la page sécurisée de Stripe/ });
    for (const button of [embedded, hosted]) {
      expect(button).toHaveAttribute('type', 'submit');
      expect(button).toHaveAttribute('data-replay');
    }
    expect(hosted).toHaveAttribute('formtarget', '_blank');
    // What the browser posts with the hosted page's button, as the endpoint reads it.
    const posted = Object.fromEntries([
      ...new FormData(form),
      [hosted.getAttribute('name'), hosted.getAttribute('value')],
    ]);
    expect(posted).toEqual({
      frequence: 'mensuel',
      donateur: 'particulier',
      somme: '2',
      autreMontant: '',
      moyen: 'lien',
    });
    const draft = paymentDraftSchema.parse(draftOfForm(posted));
    expect([draftCents(draft), draft.frequence]).toEqual([5000, 'mensuel']);

    await hydrate();
    try {
      expect(plain(within(container).getByRole('button', { name: /^Donner/ }).textContent)).toBe(
        'Donner 50 € par mois',
      );
      for (const button of within(container).getAllByRole('button', { name: /^(Donner|Payer)/ })) {
        expect(button).toHaveAttribute('type', 'button');
      }
      // The own amount's field, in the server's HTML for a browser without JavaScript, goes with the script.
      expect(within(container).queryAllByRole('textbox')).toHaveLength(0);
    } finally {
      remove();
    }
  });

  it('« Autre montant » typed on the server’s form before hydration is kept', async () => {
    const { container, hydrate, remove } = await serverRendered();
    within(container).getByRole('radio', { name: 'Autre montant' }).click();
    (within(container).getByRole('textbox', { name: 'Votre montant, en euros' }) as HTMLInputElement).value = '37';
    await hydrate();
    try {
      expect(within(container).getByRole('textbox', { name: 'Votre montant, en euros' })).toHaveValue('37');
      expect(within(container).getByRole('button', { name: /^Faire un don de 37\s€$/ })).toBeVisible();
    } finally {
      remove();
    }
  });

  it('Stripe’s script blocked: the summary names the hosted page’s button and its link focuses it', async () => {
    loadStripe.mockRejectedValueOnce(new Error('Failed to load Stripe.js'));
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ clientSecret: 'cs_test_1_secret_2' }))),
    );
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: /^Faire un don de/ }));
    const summary = await screen.findByRole('group', { name: 'Il y a un problème' });
    expect(summary).toHaveFocus();
    const link = within(summary).getByRole('link', { name: STRIPE_SCRIPT_FAILED });
    expect(link).toHaveTextContent('bouton « Payer sur la page sécurisée de Stripe »');
    await user.click(link);
    expect(screen.getByRole('button', { name: /^Payer sur la page sécurisée de Stripe/ })).toHaveFocus();
    log.mockRestore();
  });
});
