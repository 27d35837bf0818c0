/**
 * The home page's carousels: news cards leading to /actualites/<slug>, and partner logo tiles (the
 * name when there is no logo). Props are serialisable: the page formats dates and optimises pictures.
 */
import type { ArticleView } from '../../content';
import { newsVisibleCount, sponsorsVisibleCount, visibleBreakpoints } from './carousel';
import type { PictureView } from '../pictures/pictures.server';
import Carousel from './Carousel';
import ResponsivePicture from '../pictures/ResponsivePicture';

/** One news card: the article's fields the card shows. */
export interface NewsSlide extends Pick<ArticleView, 'slug' | 'titre' | 'introHtml'> {
  img?: PictureView;
  /** ISO 8601 for `<time datetime>` and the French label ("3 octobre 2026"). */
  date?: { iso: string; label: string };
}

/** One sponsor tile: the partner's id, name and logo (its alt defaults to the name). */
export interface SponsorSlide extends Pick<ArticleView, 'id' | 'titre'> {
  img?: PictureView;
}

/** `kind` picks the slides' shape; `labelledBy` is the id of the section heading that names the carousel. */
export type HomeCarouselProps = { labelledBy: string } & (
  { kind: 'news'; items: NewsSlide[] } | { kind: 'sponsors'; items: SponsorSlide[] }
);

const KINDS = {
  news: {
    name: 'Actualités',
    previousLabel: 'Actualité précédente',
    nextLabel: 'Actualité suivante',
    visibleCount: newsVisibleCount,
    breakpoints: visibleBreakpoints(newsVisibleCount),
  },
  sponsors: {
    name: 'Partenaires',
    previousLabel: 'Partenaires précédents',
    nextLabel: 'Partenaires suivants',
    visibleCount: sponsorsVisibleCount,
    breakpoints: visibleBreakpoints(sponsorsVisibleCount),
  },
};

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

function SponsorTile({ item }: { item: SponsorSlide }) {
  return (
    <div className="sponsor-tile">
      {item.img ? <ResponsivePicture view={item.img} /> : <span className="sponsor-tile__name">{item.titre}</span>}
    </div>
  );
}

/** The news or sponsors carousel island. */
export default function HomeCarousel(props: HomeCarouselProps) {
  const slides =
    props.kind === 'news'
      ? props.items.map((item) => ({ key: item.slug, content: <NewsCard item={item} /> }))
      : props.items.map((item) => ({ key: item.id, content: <SponsorTile item={item} /> }));
  return <Carousel kind={props.kind} labelledBy={props.labelledBy} {...KINDS[props.kind]} slides={slides} />;
}
