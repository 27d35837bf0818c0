/** GET /medias/<key>, on demand: a picture uploaded from the space (src/features/articles/media.server.ts). */
import type { APIRoute } from 'astro';
import { servePicture } from '../../features/articles/media.server';

export const prerender = false;

export const GET = (({ params }) => servePicture(params.key)) satisfies APIRoute;
