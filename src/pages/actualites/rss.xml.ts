/** /actualites/rss.xml: RSS 2.0 of the latest news (@astrojs/rss), announced in every page's head. */
import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { association } from '../../association';
import { category, FEED_NEWS_COUNT, news } from '../../content';
import { htmlToText } from '../../lib/html.server';
import { withDe } from '../../lib/french-articles';

/** The feed's XML: the FEED_NEWS_COUNT latest items, newest first, with absolute links, dates and plain-text intros. */
export const GET: APIRoute = async ({ site }) => {
  const [info, actualites, items] = await Promise.all([association(), category('actualites'), news()]);
  return rss({
    title: `${info.name} · ${actualites?.titre ?? 'Actualités'}`,
    description: htmlToText(actualites?.descr ?? '') || `Les nouvelles ${withDe(info.name)}.`,
    site: site!,
    customData: '<language>fr-fr</language>',
    items: items.slice(0, FEED_NEWS_COUNT).map((article) => ({
      title: article.titre,
      link: `/actualites/${article.slug}`,
      ...(article.date !== undefined && { pubDate: new Date(article.date * 1000) }),
      ...(article.introHtml && { description: htmlToText(article.introHtml) }),
    })),
  });
};
