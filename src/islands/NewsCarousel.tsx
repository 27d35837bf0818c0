/**
 * Home news carousel (spec §2, §9): the news, newest first, each card leading
 * to its article (/actualites/<slug>); floor(window width / 420) visible.
 * The cards copy ArticleCard's look (16:10 image, title link, French date,
 * intro). Props are serialisable: the page formats the date on the server.
 */
import type { ArticleView } from '../content';
import type { PictureView } from '../lib/pictures.server';
import { newsVisibleCount, visibleBreakpoints } from '../lib/carousel';
import Carousel from './Carousel';
import ResponsivePicture from './ResponsivePicture';

/** One news card: the article's fields the card shows; `date` is formatted by the page. */
export interface NewsSlide extends Pick<ArticleView, 'slug' | 'titre' | 'introHtml'> {
  /** The article's picture, optimised by the page (pictureView). */
  img?: PictureView;
  /** ISO 8601 for `<time datetime>` and the French label ("3 octobre 2026"). */
  date?: { iso: string; label: string };
}

export interface NewsCarouselProps {
  items: NewsSlide[];
  /** id of the section heading that names the carousel. */
  labelledBy: string;
}

const BREAKPOINTS = visibleBreakpoints(newsVisibleCount);

function NewsCard({ item }: { item: NewsSlide }) {
  return (
    <article className="news-card">
      {item.img && <ResponsivePicture className="news-card__img" view={item.img} />}
      <div className="news-card__body">
        <h3 className="news-card__title">
          <a href={`/actualites/${item.slug}`}>{item.titre}</a>
        </h3>
        {item.date && (
          <p className="news-card__date">
            <time dateTime={item.date.iso}>{item.date.label}</time>
          </p>
        )}
        {item.introHtml && (
          // Sanitised at build time (sanitizeContentHtml in content.ts).
          <div className="news-card__intro prose" dangerouslySetInnerHTML={{ __html: item.introHtml }} />
        )}
      </div>
    </article>
  );
}

/** The news carousel island. */
export default function NewsCarousel({ items, labelledBy }: NewsCarouselProps) {
  return (
    <Carousel
      kind="news"
      labelledBy={labelledBy}
      name="Actualités"
      previousLabel="Actualité précédente"
      nextLabel="Actualité suivante"
      visibleCount={newsVisibleCount}
      breakpoints={BREAKPOINTS}
      slides={items.map((item) => ({ key: item.slug, content: <NewsCard item={item} /> }))}
    />
  );
}
