import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import NewsletterPopup from '../../src/features/forms/NewsletterPopup';
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

  it(
    "keeps the submit button disabled and says 'Merci de saisir un email valide' " + 'while the email is invalid',
    async () => {
      const { user } = setup();
      await openPopup(user);
      const submit = screen.getByRole('button', { name: 'M’inscrire' });
      expect(submit).toHaveAttribute('aria-disabled', 'true');
      const email = screen.getByLabelText(/Votre email/);
      await user.type(email, 'marie@exemple');
      expect(screen.getByText('Merci de saisir un email valide')).toBeVisible();
      expect(email).toHaveAttribute('aria-invalid', 'true');
      expect(email).toHaveAccessibleDescription('Merci de saisir un email valide');
      expect(submit).toHaveAttribute('aria-disabled', 'true');
      await user.type(email, '.fr');
      expect(screen.queryByText('Merci de saisir un email valide')).toBeNull();
      expect(submit).toHaveAttribute('aria-disabled', 'false');
    },
  );

  it("submitting a bad email (Enter) says 'L'email ne semble pas correct, pouvez-vous le vérifier ?'", async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await openPopup(user);
    await user.type(screen.getByLabelText(/Votre email/), 'a@b{Enter}');
    expect($banner.get()?.text).toBe("L'email ne semble pas correct, pouvez-vous le vérifier ?");
    expect(screen.getByRole('status')).toHaveTextContent("L'email ne semble pas correct, pouvez-vous le vérifier ?");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("without consent says 'Votre consentement est obligatoire pour vous inscrire' and sends nothing", async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user } = setup();
    await openPopup(user);
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple.fr');
    await user.click(screen.getByRole('button', { name: 'M’inscrire' }));
    // The shared schema is loaded at the first submit (kept out of the home page's first load).
    await vi.waitFor(() => expect($banner.get()?.text).toBe('Votre consentement est obligatoire pour vous inscrire'));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('on success shows the spec message for 4 s, closes and clears the form', async () => {
    const fetch = vi.fn(async () =>
      jsonResponse(200, { ok: true, message: 'Votre email a bien été enregistré, merci pour votre soutien.' }),
    );
    vi.stubGlobal('fetch', fetch);
    const { user, dialog } = setup();
    await openPopup(user);
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple.fr');
    await user.click(screen.getByLabelText(/J’accepte/));
    await user.click(screen.getByRole('button', { name: 'M’inscrire' }));
    expect(fetch).toHaveBeenCalledWith('/api/newsletter', expect.objectContaining({ method: 'POST' }));
    expect(JSON.parse((fetch.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toEqual({
      email: 'marie@exemple.fr',
      ...newsletterConsent,
      envoi: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect($banner.get()?.text).toBe('Votre email a bien été enregistré, merci pour votre soutien.');
    expect(dialog()).not.toHaveAttribute('open');
    expect(screen.getByLabelText(/Votre email/)).toHaveValue('');
    act(() => vi.advanceTimersByTime(4000));
    expect($banner.get()).toBeNull();
  });

  it('on failure shows the error as the message and keeps what was typed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(503, { ok: false, message: 'Le service est momentanément indisponible.' })),
    );
    const { user, dialog } = setup();
    await openPopup(user);
    await user.type(screen.getByLabelText(/Votre email/), 'marie@exemple.fr');
    await user.click(screen.getByLabelText(/J’accepte/));
    await user.click(screen.getByRole('button', { name: 'M’inscrire' }));
    expect($banner.get()?.text).toBe('Le service est momentanément indisponible.');
    expect(screen.getByRole('status')).toHaveTextContent('Le service est momentanément indisponible.');
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
