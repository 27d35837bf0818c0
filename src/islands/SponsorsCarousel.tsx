/**
 * Home sponsors carousel (spec §2, §9): a logo tile per partner (its name
 * when it has no logo); round(window width / 160) visible.
 */
import type { ArticleView } from '../content';
import { sponsorsVisibleCount, visibleBreakpoints } from '../lib/carousel';
import Carousel from './Carousel';

/** One sponsor tile: the partner's id, name and logo. */
export interface SponsorSlide extends Pick<ArticleView, 'id' | 'titre'> {
  img?: NonNullable<ArticleView['img']>;
}

export interface SponsorsCarouselProps {
  items: SponsorSlide[];
  /** id of the section heading that names the carousel. */
  labelledBy: string;
}

const BREAKPOINTS = visibleBreakpoints(sponsorsVisibleCount);

/** The sponsors carousel island. */
export default function SponsorsCarousel({ items, labelledBy }: SponsorsCarouselProps) {
  return (
    <Carousel
      kind="sponsors"
      labelledBy={labelledBy}
      name="Partenaires"
      previousLabel="Partenaires précédents"
      nextLabel="Partenaires suivants"
      visibleCount={sponsorsVisibleCount}
      breakpoints={BREAKPOINTS}
      slides={items.map((item) => ({
        key: item.id,
        content: (
          <div className="sponsor-tile">
            {item.img ? (
              <img src={item.img.src} alt={item.img.alt || item.titre} width="320" height="160" loading="lazy" />
            ) : (
              <span className="sponsor-tile__name">{item.titre}</span>
            )}
          </div>
        ),
      }))}
    />
  );
}
