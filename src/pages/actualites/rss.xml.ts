/**
 * /actualites/rss.xml: the RSS 2.0 feed of the latest news (@astrojs/rss),
 * announced in every page's head and linked from the news index. Items give
 * the title, the page's absolute URL, the date and the intro as plain text.
 */
import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { address, category, FEED_NEWS_COUNT, latestNews } from '../../content';
import { htmlToText } from '../../lib/html.server';

/** The feed's XML (application/xml; the FEED_NEWS_COUNT latest news items, newest first). */
export const GET: APIRoute = async ({ site }) => {
  if (!site) throw new Error('The RSS feed needs the site URL (`site` in astro.config.mjs)');
  const [info, actualites, items] = await Promise.all([address(), category('actualites'), latestNews(FEED_NEWS_COUNT)]);
  return rss({
    title: `${info.name} · ${actualites?.titre ?? 'Actualités'}`,
    description: htmlToText(actualites?.descr ?? '') || `Les nouvelles de ${info.name}.`,
    site,
    customData: '<language>fr-fr</language>',
    items: items.map((article) => ({
      title: article.titre,
      link: `/actualites/${article.slug}`,
      ...(article.date !== undefined && { pubDate: new Date(article.date * 1000) }),
      ...(article.introHtml && { description: htmlToText(article.introHtml) }),
    })),
  });
};
