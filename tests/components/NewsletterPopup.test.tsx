import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import NewsletterPopup from '../../src/features/newsletter/NewsletterPopup';
import { $banner } from '../../src/stores/banner';
import { newsletterConsent } from '../fixtures/submissions';

function setup() {
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  render(<NewsletterPopup privacyHref="/rgpd" />);
  const dialog = () => screen.getByRole('dialog', { hidden: true });
  return { user, dialog };
}

async function openPopup(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'S’inscrire à la lettre d’information' }));
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

describe('NewsletterPopup', () => {
  beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
  afterEach(() => {
    $banner.set(null);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('opens with its button and closes with "Fermer"', async () => {
    const { user, dialog } = setup();
    expect(dialog()).not.toHaveAttribute('open');
    await openPopup(user);
    expect(dialog()).toHaveAttribute('open');
    expect(screen.getByRole('dialog', { name: 'Lettre d’information' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Fermer' }));
    expect(dialog()).not.toHaveAttribute('open');
  });

  it('spec §5: « M’inscrire » is disabled while the form is invalid, focusable, saying what is missing', async () => {
    const { user } = setup();
    await openPopup(user);
    const submit = screen.getByRole('button', { name: 'M’inscrire' });
    // aria-disabled, not disabled: it stays in the tab order and its description says why.
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(submit).toBeEnabled();
    expect(submit).toHaveAccessibleDescription(
      'Pour vous inscrire, saisissez un email valide et cochez la case d’accord.',
    );
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple.fr');
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(submit).toHaveAccessibleDescription('Pour vous inscrire, cochez la case d’accord.');
    await user.click(screen.getByLabelText(/J’accepte/));
    expect(submit).not.toHaveAttribute('aria-disabled');
    expect(submit).not.toHaveAccessibleDescription();
    await user.clear(screen.getByLabelText(/Votre email/));
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple');
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(submit).toHaveAccessibleDescription('Pour vous inscrire, saisissez un email valide.');
  });

  it("spec §5: once the email is left, 'Merci de saisir un email valide' shows under it while invalid", async () => {
    const { user } = setup();
    await openPopup(user);
    const email = screen.getByLabelText(/Votre email/);
    await user.type(email, 'marie@exemple');
    // Not while a first typing is under way: only once the field is left.
    expect(screen.queryByText('Merci de saisir un email valide')).toBeNull();
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.tab();
    expect(screen.getByText('Merci de saisir un email valide')).toBeVisible();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Merci de saisir un email valide');
    // From then on it follows what is typed.
    await user.type(email, '.fr');
    expect(screen.queryByText('Merci de saisir un email valide')).toBeNull();
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.type(email, '{Backspace}{Backspace}{Backspace}');
    expect(email).toHaveAccessibleDescription('Merci de saisir un email valide');
  });

  it('an empty field left untouched says nothing under it', async () => {
    const { user } = setup();
    await openPopup(user);
    await user.tab();
    expect(screen.queryByText('Merci de saisir un email valide')).toBeNull();
  });

  it('pressing the unavailable button sums up both problems in spec §5’s words, each by its field', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await openPopup(user);
    const submit = screen.getByRole('button', { name: 'M’inscrire' });
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    await user.click(submit);
    const summary = screen.getByRole('heading', { name: 'Il y a un problème' }).parentElement!;
    expect(summary).toHaveFocus();
    expect(document.title).toMatch(/^Erreur : /);
    const links = [...summary.querySelectorAll('a')].map((link) => link.textContent);
    expect(links).toEqual([
      "L'email ne semble pas correct, pouvez-vous le vérifier ?",
      'Votre consentement est obligatoire pour vous inscrire',
    ]);
    expect($banner.get()).toMatchObject({
      text: "L'email ne semble pas correct, pouvez-vous le vérifier ?",
      announce: false,
    });
    const email = screen.getByLabelText(/Votre email/);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Merci de saisir un email valide');
    const consent = screen.getByLabelText(/J’accepte/);
    expect(consent).toHaveAttribute('aria-invalid', 'true');
    expect(consent).toHaveAccessibleDescription('Votre consentement est obligatoire pour vous inscrire');
    // The summary's link leads to the box; a banner also shows, silent (the focused summary is what is read).
    await user.click(screen.getByRole('link', { name: 'Votre consentement est obligatoire pour vous inscrire' }));
    expect(consent).toHaveFocus();
    expect(fetch).not.toHaveBeenCalled();
    // Each error goes as soon as its field is right; with none left the title is the page's again.
    await user.type(email, 'marie@exemple.fr');
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.click(consent);
    expect(consent).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('heading', { name: 'Il y a un problème' })).toBeNull();
    expect(document.title).not.toMatch(/^Erreur/);
    expect(submit).not.toHaveAttribute('aria-disabled');
  });

  it('hydrated after the visitor typed: what the fields hold counts, the button follows it', async () => {
    // The server's HTML (a plain form, its button never marked unavailable), filled in before the island hydrates.
    const { renderToString } = await import('react-dom/server');
    const { hydrateRoot } = await import('react-dom/client');
    const container = document.createElement('div');
    container.innerHTML = renderToString(<NewsletterPopup privacyHref="/rgpd" />);
    document.body.append(container);
    expect(container.querySelector('button[type="submit"]')).not.toHaveAttribute('aria-disabled');
    (container.querySelector('input[name="email"]') as HTMLInputElement).value = 'marie@exemple';
    (container.querySelector('input[name="consentement"]') as HTMLInputElement).checked = true;
    const root = await act(async () => hydrateRoot(container, <NewsletterPopup privacyHref="/rgpd" />));
    try {
      const submit = container.querySelector('button[type="submit"]')!;
      expect(submit).toHaveAttribute('aria-disabled', 'true');
      expect(submit).toHaveAccessibleDescription('Pour vous inscrire, saisissez un email valide.');
      expect(container.querySelector('input[name="email"]')).toHaveAccessibleDescription(
        'Merci de saisir un email valide',
      );
    } finally {
      act(() => root.unmount());
      container.remove();
    }
  });

  it("submitting a bad email (Enter) says 'L'email ne semble pas correct, pouvez-vous le vérifier ?'", async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await openPopup(user);
    await user.click(screen.getByLabelText(/J’accepte/));
    await user.type(screen.getByLabelText(/Votre email/), 'a@b{Enter}');
    expect($banner.get()?.text).toBe("L'email ne semble pas correct, pouvez-vous le vérifier ?");
    expect(
      screen.getByRole('link', { name: "L'email ne semble pas correct, pouvez-vous le vérifier ?" }),
    ).toBeVisible();
    expect(screen.queryByRole('status')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("without consent: 'Votre consentement est obligatoire pour vous inscrire' by the box, nothing sent", async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await openPopup(user);
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple.fr');
    await user.click(screen.getByRole('button', { name: 'M’inscrire' }));
    expect($banner.get()?.text).toBe('Votre consentement est obligatoire pour vous inscrire');
    expect(screen.getByLabelText(/J’accepte/)).toHaveAccessibleDescription(
      'Votre consentement est obligatoire pour vous inscrire',
    );
    expect(screen.getByLabelText(/Votre email/)).not.toHaveAttribute('aria-invalid');
    // The error stays after the banner's 4 s.
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.getByText('Votre consentement est obligatoire pour vous inscrire', { selector: 'p' })).toBeVisible();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('on success shows a confirmation in the dialog that outlasts the banner, then a fresh form', async () => {
    const fetch = vi.fn(async () =>
      jsonResponse(200, { ok: true, message: 'Votre email a bien été enregistré, merci pour votre soutien.' }),
    );
    vi.stubGlobal('fetch', fetch);
    const { user, dialog } = setup();
    await openPopup(user);
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple.fr');
    await user.click(screen.getByLabelText(/J’accepte/));
    await user.click(screen.getByRole('button', { name: 'M’inscrire' }));
    // The shared schema is loaded at the first submit (kept out of the home page's first load).
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith('/api/newsletter', expect.objectContaining({ method: 'POST' })),
    );
    expect(JSON.parse((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({
      email: 'marie@exemple.fr',
      ...newsletterConsent,
      envoi: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const heading = await screen.findByRole('heading', { name: 'Plus qu’une étape' });
    expect($banner.get()).toMatchObject({
      text: 'Votre email a bien été enregistré, merci pour votre soutien.',
      announce: false,
    });
    const confirmation = heading.closest('.confirmation');
    expect(confirmation).toHaveFocus();
    act(() => vi.advanceTimersByTime(4000));
    expect($banner.get()).toBeNull();
    expect(dialog()).toHaveAttribute('open');
    expect(confirmation).toHaveTextContent('Votre email a bien été enregistré, merci pour votre soutien.');
    expect(confirmation).toHaveTextContent('ouvrez le message que nous venons de vous envoyer');
    await user.click(screen.getAllByRole('button', { name: 'Fermer' }).at(-1)!);
    expect(dialog()).not.toHaveAttribute('open');
    await openPopup(user);
    expect(screen.getByLabelText(/Votre email/)).toHaveValue('');
  });

  it('on failure keeps the error in the dialog, focused, and what was typed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(503, { ok: false, message: 'Le service est momentanément indisponible.' })),
    );
    const { user, dialog } = setup();
    await openPopup(user);
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple.fr');
    await user.click(screen.getByLabelText(/J’accepte/));
    await user.click(screen.getByRole('button', { name: 'M’inscrire' }));
    const summary = (await screen.findByRole('heading', { name: 'Il y a un problème' })).parentElement!;
    expect($banner.get()?.text).toBe('Le service est momentanément indisponible.');
    expect(summary).toHaveFocus();
    expect(summary).toHaveTextContent('Le service est momentanément indisponible.');
    act(() => vi.advanceTimersByTime(5000));
    expect(summary).toHaveTextContent('Le service est momentanément indisponible.');
    expect(dialog()).toHaveAttribute('open');
    expect(screen.getByLabelText(/Votre email/)).toHaveValue('marie@exemple.fr');
    expect(screen.getByLabelText(/J’accepte/)).toBeChecked();
  });

  it('a network failure gets a French message too', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const { user } = setup();
    await openPopup(user);
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple.fr');
    await user.click(screen.getByLabelText(/J’accepte/));
    await user.click(screen.getByRole('button', { name: 'M’inscrire' }));
    expect($banner.get()?.text).toBe('Impossible de joindre le serveur. Vérifiez votre connexion puis réessayez.');
  });
});
