/** How much of the news archive each place shows: fixed numbers, so that no page grows with the archive. */

/** News items the home carousel shows (the latest ones). */
export const HOME_NEWS_COUNT = 12;
/** News items per page of the /actualites index. */
export const NEWS_PER_PAGE = 12;
/** News items of the RSS feed (/actualites/rss.xml). */
export const FEED_NEWS_COUNT = 20;
