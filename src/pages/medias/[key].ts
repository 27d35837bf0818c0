/** GET /medias/<key>, on demand: a picture uploaded from the space (src/features/content/articles/media.server.ts). */
import type { APIRoute } from 'astro';
import { servePicture } from '../../features/content/articles/media.server';

export const prerender = false;

export const GET = (({ params }) => servePicture(params.key)) satisfies APIRoute;
