/**
 * Astro writes its islands' style (`<style>astro-island,…{display:contents}</style>`) just before the first island,
 * in the middle of <body>, where HTML does not allow a <style> (RGAA 8.2, the Nu HTML Checker): the middleware below
 * moves it into <head>, on prerendered pages and on-demand ones alike. The Content-Security-Policy already allows it
 * by its hash wherever it stands.
 */
import { defineMiddleware } from 'astro:middleware';

/** Astro's island style element, as astro/dist/runtime/server/scripts.js writes it. */
const ISLAND_STYLE = '<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>';

/** `html` with every island style element of its <body> moved, once, to the end of its <head>; unchanged without. */
export function islandStyleInHead(html: string): string {
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0 || html.indexOf(ISLAND_STYLE, headEnd) < 0) return html;
  const body = html.slice(headEnd).replaceAll(ISLAND_STYLE, '');
  const head = html.slice(0, headEnd);
  return `${head}${head.includes(ISLAND_STYLE) ? '' : ISLAND_STYLE}${body}`;
}

/** Rewrites HTML answers with islandStyleInHead (the page is read whole: pages here are small). */
export const islandStyleMiddleware = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!response.headers.get('content-type')?.includes('text/html') || !response.body) return response;
  const html = await response.text();
  const answer = new Response(islandStyleInHead(html), response);
  answer.headers.delete('content-length');
  return answer;
});
