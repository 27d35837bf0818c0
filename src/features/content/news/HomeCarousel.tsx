/**
 * The home page's carousels (news cards, partner logos) on embla: `visible` slides, one item per arrow press, wrapping.
 * No layout shift: media queries from the same visible-count rule size the server-rendered frame; without JavaScript
 * the list scrolls sideways (carousel.css).
 */
import useEmblaCarousel from 'embla-carousel-react';
import { useEffect, useState, type CSSProperties } from 'react';
import type { PictureView } from '../pictures/picture-view';
import ResponsivePicture from '../pictures/ResponsivePicture';
import { newsVisibleCount, sponsorsVisibleCount, stepIndex, visibleBreakpoints } from './carousel';
import './carousel.css';
import { prefersReducedMotion } from '../../../lib/motion';

/** One news card (ArticleCard's markup and global style). */
export interface NewsSlide {
  /** The article's address: /actualites/<slug>. */
  slug: string;
  titre: string;
  /** The article's intro, sanitised HTML. */
  introHtml: string;
  img?: PictureView | undefined;
  /** ISO 8601 for `<time datetime>` and the French label ("3 octobre 2026"). */
  date?: { iso: string; label: string } | undefined;
}

/** One sponsor tile: the partner's id, name and logo (its alt defaults to the name). */
export interface SponsorSlide {
  id: string;
  titre: string;
  img?: PictureView | undefined;
}

/** `kind` picks the slides' shape; `labelledBy` is the id of the section heading that names the carousel. */
export type HomeCarouselProps = { labelledBy: string } & (
  { kind: 'news'; items: NewsSlide[] } | { kind: 'sponsors'; items: SponsorSlide[] }
);

/** Per kind: first word of the position announcement, the visible-count rule, the arrows' names. */
const KINDS = {
  news: { name: 'Actualités', rule: newsVisibleCount, arrows: ['Actualité précédente', 'Actualité suivante'] },
  sponsors: {
    name: 'Partenaires',
    rule: sponsorsVisibleCount,
    arrows: ['Partenaires précédents', 'Partenaires suivants'],
  },
};

/**
 * The server frame's CSS: --visible per `min-width` step, the arrows hidden from the first width where all `count` fit.
 */
function frameCss(kind: keyof typeof KINDS, count: number): string {
  const at = (minWidthPx: number, css: string) => (minWidthPx ? `@media (min-width: ${minWidthPx}px) { ${css} }` : css);
  const steps = visibleBreakpoints(KINDS[kind].rule);
  const allFit = steps.find(({ visible }) => visible >= count);
  const rules = steps.map(({ minWidthPx, visible }) => at(minWidthPx, `.carousel--${kind} { --visible: ${visible}; }`));
  if (allFit) rules.push(at(allFit.minWidthPx, `.carousel--${kind} .carousel__controls { display: none; }`));
  return rules.join('\n');
}

/**
 * The news or sponsors carousel island: a labelled region, arrows when the items overflow, the new position announced
 * politely.
 */
export default function HomeCarousel({ kind, labelledBy, items }: HomeCarouselProps) {
  const { name, rule, arrows } = KINDS[kind];
  const count = items.length;
  // null until mounted: the server and the hydrating render must be identical.
  const [visible, setVisible] = useState<number | null>(null);
  const [index, setIndex] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const scrollable = visible !== null && count > visible;
  const first = visible === null ? 0 : Math.min(index, Math.max(0, count - visible));
  // Embla's `duration` is a spring stiffness: 16 ends 99 % of a move in ≈ 300 ms (SLIDE_DURATION_MS, measured by
  // carousels.spec.ts). No watchFocus: hidden slides are inert, and tabbing must not scroll.
  const [viewportRef, embla] = useEmblaCarousel({
    align: 'start',
    duration: 16,
    watchFocus: false,
    watchDrag: scrollable,
  });

  useEffect(() => {
    const update = () => setVisible(rule(window.innerWidth));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [rule]);

  // Embla knows the truth after a drag or a resize (it re-measures itself).
  useEffect(() => {
    if (!embla) return;
    // Tabbing through the list before hydration may have scrolled the clipped viewport: embla moves the track instead.
    embla.rootNode().scrollLeft = 0;
    const sync = () => setIndex(embla.selectedScrollSnap());
    embla.on('select', sync).on('reInit', sync);
    return () => void embla.off('select', sync).off('reInit', sync);
  }, [embla]);

  const move = (step: 1 | -1) => {
    if (visible === null) return;
    const target = stepIndex(first, step, count, visible);
    const last = Math.min(target + visible, count);
    setIndex(target);
    setAnnouncement(`${name} : ${target + 1 === last ? '' : `${target + 1} à `}${last} sur ${count}`);
    embla?.scrollTo(target, prefersReducedMotion());
  };

  return (
    <section
      className={`carousel carousel--${kind}`}
      aria-roledescription="carrousel"
      aria-labelledby={labelledBy}
      style={visible === null ? undefined : ({ '--visible': visible } as CSSProperties)}
    >
      <style>{frameCss(kind, count)}</style>
      {(visible === null || scrollable) && (
        <div className="carousel__controls">
          {([-1, 1] as const).map((step, arrow) => (
            <button key={step} type="button" className="round-button carousel__arrow" onClick={() => move(step)}>
              <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="24" height="24">
                <path
                  d={step === 1 ? 'M9.5 5.5 16 12l-6.5 6.5' : 'M14.5 5.5 8 12l6.5 6.5'}
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2.5"
                  strokeLinecap="round"
                  strokeLinejoin="round"
                />
              </svg>
              <span className="visually-hidden">{arrows[arrow]}</span>
            </button>
          ))}
        </div>
      )}
      <div className="carousel__viewport" ref={viewportRef}>
        <div className="carousel__track">
          {items.map((item, slide) => (
            <div
              key={'slug' in item ? item.slug : item.id}
              className="carousel__slide"
              role="group"
              aria-roledescription="diapositive"
              aria-label={`${slide + 1} sur ${count}`}
              inert={visible !== null && (slide < first || slide >= first + visible)}
            >
              {'slug' in item ? (
                <article className="panel card">
                  {item.img && <ResponsivePicture className="card__img" view={item.img} />}
                  <div className="card__body">
                    <h3 className="card__title">
                      <a href={`/actualites/${item.slug}`}>{item.titre}</a>
                    </h3>
                    {item.date && (
                      <p className="card__date">
                        <time dateTime={item.date.iso}>{item.date.label}</time>
                      </p>
                    )}
                    {item.introHtml && (
                      // Sanitised at build time (sanitizeContentHtml in content.ts).
                      <div className="card__intro prose" dangerouslySetInnerHTML={{ __html: item.introHtml }} />
                    )}
                  </div>
                </article>
              ) : (
                <div className="sponsor-tile">
                  {item.img ? (
                    <ResponsivePicture view={item.img} />
                  ) : (
                    <span className="sponsor-tile__name">{item.titre}</span>
                  )}
                </div>
              )}
            </div>
          ))}
        </div>
      </div>
      <p className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
    </section>
  );
}
