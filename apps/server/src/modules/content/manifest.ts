import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { manifest, manifestJson } from '@tp/contract/endpoints/platform';
import { COMPANY_CHANGED_CHANNEL } from './service.ts';

const THEME_COLOR = '#0b0e11';
const CACHE_MS = 60_000;
/** PNGs under apps/server/public/icons, made by generate-icons.ts. */
const ICONS = [192, 512].map((size) => ({
  src: `/icons/icon-${size}.png`,
  sizes: `${size}x${size}`,
  type: 'image/png',
  purpose: 'any maskable',
}));

/** A short name for the home screen: the company name up to its first word that would overflow 12 characters. */
export function shortNameOf(name: string): string {
  const words = name
    .replace(/\b(Ltd|Limited|Inc|LLC|Co|Corp|Group)\b\.?/gi, '')
    .trim()
    .split(/\s+/);
  let short = words[0] ?? name;
  for (const w of words.slice(1)) {
    if (`${short} ${w}`.length > 12) break;
    short = `${short} ${w}`;
  }
  // One long word ("TradePlatform") is cut where a capital starts a part of it, not mid-part.
  if (short.length > 12) short = /^.{2,12}(?=\p{Lu})/u.exec(short.slice(0, 13))?.[0] ?? short.slice(0, 12);
  return short || 'Trade';
}

export function buildManifest(company: { name: string; subject: string }) {
  return {
    id: '/',
    name: company.name,
    short_name: shortNameOf(company.name),
    description: company.subject,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: THEME_COLOR,
    background_color: THEME_COLOR,
    categories: ['finance'],
    icons: ICONS,
  };
}

/** The installable web app's manifest at the site origin, named after the main company. */
export function registerManifest(app: FastifyInstance, ctx: AppContext) {
  let cached: { body: string; until: number } | null = null;
  ctx.bus.subscribe(COMPANY_CHANGED_CHANNEL, () => {
    cached = null;
  });
  const handler = async (_req: unknown, reply: FastifyReply) => {
    if (!cached || cached.until < Date.now()) {
      const company = await ctx.services.content.company();
      cached = { body: JSON.stringify(buildManifest(company)), until: Date.now() + CACHE_MS };
    }
    return reply.type('application/manifest+json; charset=utf-8').header('cache-control', 'public, max-age=300').send(cached.body);
  };
  for (const url of [manifest.path, manifestJson.path]) {
    app.get(url, { schema: { hide: true } }, handler);
  }
}
