/**
 * The carousel shared by the news and sponsors islands (spec §2, §4, §9):
 * a window of `visible` slides moved one item per arrow press with
 * wrap-around, dragged with embla on touch and mouse, and a server-rendered
 * first frame identical to the hydrated one.
 *
 * No layout shift: the server cannot know the window width, so the slide
 * width comes from the custom property --visible, which media queries
 * generated from the same visible-count rule set (steps of
 * `visibleBreakpoints`); after mount the island sets the very same value from
 * window.innerWidth (and on resize), so hydration changes nothing on screen.
 * The arrows are hidden the same way where count ≤ visible, then not rendered.
 *
 * Without JavaScript (`@media (scripting: none)` in carousel.css) the list
 * scrolls sideways with scroll snapping and every link stays reachable.
 */
import useEmblaCarousel from 'embla-carousel-react';
import { useEffect, useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { canScroll, lastIndex, stepIndex, type VisibleBreakpoint, type VisibleCount } from '../lib/carousel';
import './carousel.css';

type EmblaOptions = NonNullable<Parameters<typeof useEmblaCarousel>[0]>;

/**
 * Embla's `duration` is not in milliseconds: it is the stiffness of a damped
 * spring stepped 60 times a second (velocity += distance / duration, then
 * × 0.68 friction), so a move has no exact end. With 16 a move covers 95 %
 * of its distance in ≈ 250 ms and 99 % in 300–317 ms (measured in Chromium
 * by tests/e2e/carousels.spec.ts): the closest value to the spec's 300 ms
 * slide (SLIDE_DURATION_MS in lib/carousel.ts). Embla's default, 25, takes
 * ≈ 680 ms to 99 %; smaller values overshoot the target (1 % at 15, 3 % at 12).
 */
const EMBLA_DURATION = 16;

/**
 * Embla's snaps must be the arrow positions 0 … count − visible: no loop,
 * start-aligned, one slide per snap, trailing snaps trimmed. watchFocus is
 * off because hidden slides are inert: focus only reaches visible slides,
 * and tabbing into one must not scroll the carousel.
 */
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

/** The shared carousel (see the module comment). */
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
