/**
 * Home sponsors carousel (spec §2, §9): a logo tile per partner (its name
 * when it has no logo); round(window width / 160) visible.
 */
import type { ArticleView } from '../content';
import type { PictureView } from '../lib/pictures.server';
import { sponsorsVisibleCount, visibleBreakpoints } from '../lib/carousel';
import Carousel from './Carousel';
import ResponsivePicture from './ResponsivePicture';

/** One sponsor tile: the partner's id, name and logo. */
export interface SponsorSlide extends Pick<ArticleView, 'id' | 'titre'> {
  /** The partner's logo, optimised by the page (pictureView); its alt defaults to the name. */
  img?: PictureView;
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
              <ResponsivePicture view={item.img} />
            ) : (
              <span className="sponsor-tile__name">{item.titre}</span>
            )}
          </div>
        ),
      }))}
    />
  );
}
