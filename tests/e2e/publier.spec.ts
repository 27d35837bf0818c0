/**
 * The editors' publish page /publier (rendered on demand by the built function): kept out of
 * search engines and the sitemap, a password form that posts to /api/rebuild without JavaScript,
 * the French outcome of the redirect `?publication=…`, and the report of the version online.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectNoAxeViolations, VIEWPORTS, watchPage } from './helpers';

/** The report baked into the build under test (the pull wrote it before `astro build`). */
const report = JSON.parse(readFileSync('src/data/report.json', 'utf8')) as {
  collections: Record<string, { read: number; shown: number }>;
  pictures: { fetched: number };
};

test.describe('/publier', () => {
  test('is kept out of search engines and of the sitemap', async ({ page, request }) => {
    const response = await page.goto('/publier');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['x-robots-tag']).toBe('noindex, nofollow');
    expect(response?.headers()['cache-control']).toBe('no-store');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    const sitemap = await (await request.get('/sitemap-0.xml')).text();
    expect(sitemap).toContain('/asso');
    expect(sitemap).not.toContain('/publier');
  });

  test('has a labelled password field and a button that post to /api/rebuild; axe clean at 375 and 1280px', async ({
    page,
    baseURL,
  }) => {
    const watch = watchPage(page, baseURL!);
    await page.goto('/publier');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Publier le site');
    const password = page.getByLabel('Mot de passe de publication');
    await expect(password).toHaveAttribute('type', 'password');
    await expect(password).toHaveAttribute('name', 'motdepasse');
    await expect(password).toHaveAttribute('autocomplete', 'current-password');
    const form = page.locator('form', { has: password });
    await expect(form).toHaveAttribute('method', 'post');
    await expect(form).toHaveAttribute('action', '/api/rebuild');
    await expect(form.getByRole('button', { name: 'Publier les modifications' })).toHaveAttribute('type', 'submit');
    // No outcome before a publication was asked for: the live region is there, empty.
    await expect(page.getByRole('main').getByRole('status').filter({ hasText: /\S/ })).toHaveCount(0);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await expectNoAxeViolations(page, `/publier at ${viewport.width}px`);
    }
    expect(watch.problems).toEqual([]);
  });

  const outcomes = [
    ['lancee', 'La publication est lancée. Le site sera à jour dans quelques minutes', 'Publication lancée'],
    ['refusee', 'Mot de passe incorrect : rien n’a été publié.', 'Publication non lancée'],
    ['attente', 'Une publication vient déjà d’être lancée. Attendez une minute', 'Publication non lancée'],
    ['erreur', 'La publication n’a pas pu être lancée', 'Publication non lancée'],
  ] as const;
  for (const [value, message, title] of outcomes) {
    test(`says the outcome "${value}" in French, in a status region and in the title`, async ({ page }) => {
      await page.goto(`/publier?publication=${value}`);
      await expect(page.getByRole('main').getByRole('status')).toContainText(message);
      await expect(page).toHaveTitle(new RegExp(`^${title} · Publier le site`));
      await expectNoAxeViolations(page, `/publier?publication=${value}`);
    });
  }

  test('ignores an unknown outcome (nothing from the address is shown)', async ({ page }) => {
    await page.goto('/publier?publication=%3Cb%3Epirate%3C%2Fb%3E');
    await expect(page.getByRole('main').getByRole('status')).toHaveText('');
    await expect(page.locator('main')).not.toContainText('pirate');
  });

  test('shows the report of the version online in French', async ({ page }) => {
    await page.goto('/publier');
    const section = page.getByRole('region', { name: 'Ce qui est en ligne' });
    await expect(section).toContainText(/Version préparée le \d{1,2} \S+ \d{4} à \d{2}:\d{2}\./);
    const { articles, partenaires } = report.collections;
    await expect(section.getByRole('listitem').filter({ hasText: /articles? publiés? sur/ })).toHaveText(
      `${articles!.shown} articles publiés sur ${articles!.read}`,
    );
    await expect(section.getByRole('listitem').filter({ hasText: /partenaires? publiés? sur/ })).toHaveText(
      `${partenaires!.shown} partenaires publiés sur ${partenaires!.read}`,
    );
    await expect(section.getByRole('listitem').filter({ hasText: /images? publiées?/ })).toHaveText(
      `${report.pictures.fetched} images publiées`,
    );
    await expect(section).toContainText('Aucun : tous les documents sont publiés.');
    await expect(section).toContainText('Aucune : toutes les images sont publiées.');
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    // The rebuild webhook answers the form with a 303 to /publier?publication=…
    test('a wrong password comes back to the page with « Mot de passe incorrect »', async ({ page }) => {
      await page.goto('/publier');
      await page.getByLabel('Mot de passe de publication').fill('pas le bon');
      await page.getByRole('button', { name: 'Publier les modifications' }).click();
      await expect(page).toHaveURL('/publier?publication=refusee');
      await expect(page.getByRole('main').getByRole('status')).toContainText(
        'Mot de passe incorrect : rien n’a été publié.',
      );
    });
  });
});
