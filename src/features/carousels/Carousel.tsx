/**
 * The carousel behind the home page's islands: a window of `visible` slides moved one item per arrow
 * press with wrap-around, dragged with embla. No layout shift: media queries generated from the same
 * visible-count rule size the server-rendered frame, and the island sets the same --visible after
 * mount. Without JavaScript the list scrolls sideways (carousel.css, `scripting: none`).
 */
import useEmblaCarousel from 'embla-carousel-react';
import { useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { canScroll, lastIndex, stepIndex, type VisibleBreakpoint, type VisibleCount } from './carousel';
import './carousel.css';

type EmblaOptions = NonNullable<Parameters<typeof useEmblaCarousel>[0]>;

/**
 * Embla's `duration` is a spring stiffness, not ms: 16 covers 99 % of a move in ≈ 300 ms (measured by
 * tests/e2e/carousels.spec.ts), the closest to SLIDE_DURATION_MS; the default 25 takes ≈ 680 ms.
 */
const EMBLA_DURATION = 16;

/** Snaps at the arrow positions 0 … count − visible; no watchFocus: hidden slides are inert, and tabbing must not scroll. */
const EMBLA_OPTIONS: EmblaOptions = {
  loop: false,
  align: 'start',
  containScroll: 'trimSnaps',
  slidesToScroll: 1,
  duration: EMBLA_DURATION,
  watchFocus: false,
};

/** One slide: a stable key and its content. */
export interface CarouselSlide {
  key: string;
  content: ReactNode;
}

export interface CarouselProps {
  /** Root class modifier (`carousel--<kind>`), also the scope of the generated media queries. */
  kind: 'news' | 'sponsors';
  /** id of the heading that names the carousel (region label). */
  labelledBy: string;
  /** What the slides are, first word of the position announcement ("Actualités"). */
  name: string;
  /** Accessible name of the previous arrow. */
  previousLabel: string;
  /** Accessible name of the next arrow. */
  nextLabel: string;
  /** Window width (pixels) → visible count. */
  visibleCount: VisibleCount;
  /** `visibleBreakpoints(visibleCount)`, computed once by the caller. */
  breakpoints: VisibleBreakpoint[];
  slides: CarouselSlide[];
}

/**
 * CSS for the server-rendered frame: --visible per `min-width` step, and
 * the arrows hidden from the first width where every item fits.
 */
function frameCss(kind: string, breakpoints: VisibleBreakpoint[], count: number): string {
  const scope = `.carousel--${kind}`;
  const at = (minWidthPx: number, rule: string) =>
    minWidthPx === 0 ? rule : `@media (min-width: ${minWidthPx}px) { ${rule} }`;
  const rules = breakpoints.map(({ minWidthPx, visible }) => at(minWidthPx, `${scope} { --visible: ${visible}; }`));
  const allFit = breakpoints.find(({ visible }) => !canScroll(count, visible));
  if (allFit) rules.push(at(allFit.minWidthPx, `${scope} .carousel__controls { display: none; }`));
  return rules.join('\n');
}

/** "Actualités : 4 à 6 sur 7", or "Actualités : 4 sur 7" for a single visible item (1-based). */
function positionText(name: string, first: number, visible: number, count: number): string {
  const last = Math.min(first + visible, count);
  return first + 1 === last ? `${name} : ${last} sur ${count}` : `${name} : ${first + 1} à ${last} sur ${count}`;
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

function Chevron({ direction }: { direction: 'previous' | 'next' }) {
  return (
    <svg aria-hidden="true" focusable="false" viewBox="0 0 24 24" width="24" height="24">
      <path
        d={direction === 'previous' ? 'M14.5 5.5 8 12l6.5 6.5' : 'M9.5 5.5 16 12l-6.5 6.5'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The carousel: `slides` in a labelled region, arrows when they do not all fit, the new position announced politely. */
export default function Carousel({
  kind,
  labelledBy,
  name,
  previousLabel,
  nextLabel,
  visibleCount,
  breakpoints,
  slides,
}: CarouselProps) {
  const count = slides.length;
  // null until mounted: the server and the hydrating render must be identical.
  const [visible, setVisible] = useState<number | null>(null);
  const [index, setIndex] = useState(0);
  const [announcement, setAnnouncement] = useState('');
  const scrollable = visible !== null && canScroll(count, visible);
  const first = visible === null ? 0 : Math.min(index, lastIndex(count, visible));

  const options = useMemo<EmblaOptions>(() => ({ ...EMBLA_OPTIONS, watchDrag: scrollable }), [scrollable]);
  const [viewportRef, embla] = useEmblaCarousel(options);
  const css = useMemo(() => frameCss(kind, breakpoints, count), [kind, breakpoints, count]);

  useEffect(() => {
    const update = () => setVisible(visibleCount(window.innerWidth));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [visibleCount]);

  // Embla knows the truth after a drag or a resize (it re-measures itself).
  useEffect(() => {
    if (!embla) return;
    // Tabbing through the list before hydration may have scrolled the clipped viewport: embla moves the track instead.
    embla.rootNode().scrollLeft = 0;
    const sync = () => setIndex(embla.selectedScrollSnap());
    embla.on('select', sync).on('reInit', sync);
    return () => {
      embla.off('select', sync).off('reInit', sync);
    };
  }, [embla]);

  const move = (step: 1 | -1) => {
    if (visible === null) return;
    const target = stepIndex(first, step, count, visible);
    setIndex(target);
    setAnnouncement(positionText(name, target, visible, count));
    embla?.scrollTo(target, prefersReducedMotion());
  };

  const style = visible === null ? undefined : ({ '--visible': visible } as CSSProperties);
  const hidden = (slide: number) => visible !== null && (slide < first || slide >= first + visible);

  return (
    <section
      className={`carousel carousel--${kind}`}
      aria-roledescription="carrousel"
      aria-labelledby={labelledBy}
      style={style}
    >
      <style>{css}</style>
      {(visible === null || scrollable) && (
        <div className="carousel__controls">
          <button type="button" className="carousel__arrow" onClick={() => move(-1)}>
            <Chevron direction="previous" />
            <span className="visually-hidden">{previousLabel}</span>
          </button>
          <button type="button" className="carousel__arrow" onClick={() => move(1)}>
            <Chevron direction="next" />
            <span className="visually-hidden">{nextLabel}</span>
          </button>
        </div>
      )}
      <div className="carousel__viewport" ref={viewportRef}>
        <div className="carousel__track">
          {slides.map((slide, slideIndex) => (
            <div
              key={slide.key}
              className="carousel__slide"
              role="group"
              aria-roledescription="diapositive"
              aria-label={`${slideIndex + 1} sur ${count}`}
              inert={hidden(slideIndex)}
            >
              {slide.content}
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
