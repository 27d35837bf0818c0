/**
 * The carousel islands in jsdom. jsdom has no layout (every box is 0 × 0)
 * and lacks what embla calls at start-up (ResizeObserver,
 * IntersectionObserver, matchMedia), so those are stubbed as no-ops: embla
 * then sees a single snap and never moves anything. The assertions
 * are on what the island itself decides and renders: links, French names,
 * which slides are hidden (inert) for window.innerWidth, the announcement.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import HomeCarousel, { type NewsSlide, type SponsorSlide } from '../../src/features/content/news/HomeCarousel';
import type { PictureView } from '../../src/features/content/pictures/pictures.server';

class NoopObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

beforeAll(() => {
  globalThis.ResizeObserver ??= NoopObserver as unknown as typeof ResizeObserver;
  globalThis.IntersectionObserver ??= NoopObserver as unknown as typeof IntersectionObserver;
  window.matchMedia ??= (media: string) =>
    ({
      media,
      matches: false,
      onchange: null,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      dispatchEvent: () => false,
    }) satisfies MediaQueryList;
});

const initialWidth = window.innerWidth;
afterEach(() => setWindowWidth(initialWidth));

/** Resizes jsdom's window (pixels) and tells the listeners. */
function setWindowWidth(widthPx: number) {
  act(() => {
    window.innerWidth = widthPx;
    window.dispatchEvent(new Event('resize'));
  });
}

/** A picture as the page passes it (pictureView's output): AVIF and WebP sources, JPEG fallback. */
const picture = (name: string, alt: string): PictureView => ({
  src: `/_astro/${name}_800w.jpg`,
  srcset: `/_astro/${name}_400w.jpg 400w, /_astro/${name}_800w.jpg 800w`,
  sizes: '(max-width: 400px) 100vw, 400px',
  width: 800,
  height: 500,
  alt,
  loading: 'lazy',
  sources: [
    { type: 'image/avif', srcset: `/_astro/${name}_400w.avif 400w, /_astro/${name}_800w.avif 800w` },
    { type: 'image/webp', srcset: `/_astro/${name}_400w.webp 400w, /_astro/${name}_800w.webp 800w` },
  ],
});

const NEWS: NewsSlide[] = Array.from({ length: 7 }, (_, index) => ({
  slug: `nouvelle-${index + 1}`,
  titre: `Nouvelle ${index + 1}`,
  introHtml: `<p>Résumé <strong>${index + 1}</strong></p>`,
  img: picture(`article-${index + 1}`, `Image ${index + 1}`),
  date: { iso: '2026-10-03T09:00:00.000Z', label: '3 octobre 2026' },
}));

const SPONSORS: SponsorSlide[] = Array.from({ length: 14 }, (_, index) => ({
  id: `partenaire-${index + 1}`,
  titre: `Partenaire ${index + 1}`,
  ...(index === 0 ? {} : { img: picture(`logo-${index + 1}`, `Logo ${index + 1}`) }),
}));

function renderNews(items = NEWS) {
  return render(
    <>
      <h2 id="news-title">Actualités</h2>
      <HomeCarousel kind="news" items={items} labelledBy="news-title" />
    </>,
  );
}

const slide = (position: number, count = 7) => screen.getByRole('group', { name: `${position} sur ${count}` });

/** 1-based positions of the slides that are not inert. */
function shownSlides(): number[] {
  return screen
    .getAllByRole('group', { hidden: true })
    .filter((group) => !group.hasAttribute('inert'))
    .map((group) => Number(group.getAttribute('aria-label')!.split(' ')[0]));
}

describe('HomeCarousel: news', () => {
  it('is a region named by its heading, one slide per news item, each card linking to its article', () => {
    renderNews();
    const region = screen.getByRole('region', { name: 'Actualités' });
    expect(region).toHaveAttribute('aria-roledescription', 'carrousel');
    const groups = within(region).getAllByRole('group');
    expect(groups).toHaveLength(7);
    expect(groups[0]).toHaveAttribute('aria-roledescription', 'diapositive');

    const card = within(slide(3)).getByRole('article');
    expect(within(card).getByRole('heading', { level: 3, name: 'Nouvelle 3' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Nouvelle 3' })).toHaveAttribute('href', '/actualites/nouvelle-3');
    const image = within(card).getByRole('img', { name: 'Image 3' });
    expect(image).toHaveAttribute('src', '/_astro/article-3_800w.jpg');
    expect(image).toHaveAttribute('width', '800');
    expect(image).toHaveAttribute('height', '500');
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image.parentElement?.querySelector('source[type="image/avif"]')).toHaveAttribute(
      'srcset',
      '/_astro/article-3_400w.avif 400w, /_astro/article-3_800w.avif 800w',
    );
    expect(within(card).getByText('3 octobre 2026')).toHaveAttribute('datetime', '2026-10-03T09:00:00.000Z');
    expect(within(card).getByText('3', { selector: 'strong' })).toBeInTheDocument();
  });

  it('has arrows with French names that are real buttons', () => {
    renderNews();
    expect(screen.getByRole('button', { name: 'Actualité précédente' })).toHaveAttribute('type', 'button');
    expect(screen.getByRole('button', { name: 'Actualité suivante' })).toHaveAttribute('type', 'button');
  });

  it('shows floor(width / 420) items; the others are inert (out of the tab order)', () => {
    setWindowWidth(1280);
    renderNews();
    expect(shownSlides()).toEqual([1, 2, 3]);
    expect(slide(4)).toHaveAttribute('inert');

    setWindowWidth(375);
    expect(shownSlides()).toEqual([1]);
  });

  // The wrap-around at both ends is tested in the browser at 375 and 1280 px (tests/e2e/carousels.spec.ts).
  it('moves with its arrows and announces the position politely', async () => {
    setWindowWidth(1280); // 3 visible of 7
    renderNews();
    const user = userEvent.setup();
    const next = screen.getByRole('button', { name: 'Actualité suivante' });
    const previous = screen.getByRole('button', { name: 'Actualité précédente' });
    const status = screen.getByText('', { selector: '[aria-live="polite"]' });
    expect(status).toBeEmptyDOMElement();

    await user.click(next);
    expect(shownSlides()).toEqual([2, 3, 4]);
    expect(status).toHaveTextContent('Actualités : 2 à 4 sur 7');
    await user.click(previous);
    expect(shownSlides()).toEqual([1, 2, 3]);
    expect(status).toHaveTextContent('Actualités : 1 à 3 sur 7');
  });

  it('works from the keyboard', async () => {
    setWindowWidth(375);
    renderNews();
    const user = userEvent.setup();
    screen.getByRole('button', { name: 'Actualité précédente' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Actualité suivante' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(shownSlides()).toEqual([2]);
    expect(screen.getByText('Actualités : 2 sur 7')).toBeInTheDocument();
    await user.keyboard(' ');
    expect(shownSlides()).toEqual([3]);
  });

  it('has no arrows and hides nothing when every item fits (count ≤ visible)', () => {
    setWindowWidth(2940); // floor(2940 / 420) = 7 = count
    renderNews();
    expect(screen.queryByRole('button')).toBeNull();
    expect(shownSlides()).toEqual([1, 2, 3, 4, 5, 6, 7]);

    setWindowWidth(1280);
    expect(screen.getByRole('button', { name: 'Actualité suivante' })).toBeInTheDocument();
  });

  it('has no arrows for fewer items than the visible count', () => {
    setWindowWidth(1280);
    renderNews(NEWS.slice(0, 2));
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '/actualites/nouvelle-1',
      '/actualites/nouvelle-2',
    ]);
  });

  it('keeps an index left out of range by a resize within the new range', async () => {
    setWindowWidth(375);
    renderNews();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Actualité précédente' }));
    expect(shownSlides()).toEqual([7]);
    setWindowWidth(1280);
    expect(shownSlides()).toEqual([5, 6, 7]);
  });
});

describe('HomeCarousel: sponsors', () => {
  it('shows round(width / 160) logo tiles, moves, and drops its arrows when all fit', async () => {
    setWindowWidth(1280); // 8 visible of 14: the first goes 1 … 7
    render(
      <>
        <h2 id="sponsors-title">Nos partenaires</h2>
        <HomeCarousel kind="sponsors" items={SPONSORS} labelledBy="sponsors-title" />
      </>,
    );
    const region = screen.getByRole('region', { name: 'Nos partenaires' });
    expect(within(region).getByRole('img', { name: 'Logo 2' })).toBeInTheDocument();
    expect(within(slide(1, 14)).getByText('Partenaire 1')).toBeInTheDocument(); // no logo: its name
    expect(shownSlides()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Partenaires suivants' }));
    expect(shownSlides()).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    await user.click(screen.getByRole('button', { name: 'Partenaires précédents' }));
    expect(shownSlides()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(screen.getByText('Partenaires : 1 à 8 sur 14')).toBeInTheDocument();

    setWindowWidth(2240); // round(14) = 14 = count
    expect(screen.queryByRole('button')).toBeNull();
  });
});
