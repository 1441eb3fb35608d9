import { builder } from '../graphql/builder.js';
import { graphqlOnly } from '../graphql/graphql-only.js';
import { connectionOf, toConnection } from '../graphql/connection.js';
import { parsedArguments, type RequestContext } from '../graphql/context.js';
import type { InspirationPhoto as PhotoRow } from '../generated/prisma/client.js';
import { getInspirationPhoto, inspirationPhotosById, searchInspiration, type OffsetPage } from './inspiration.service.js';
import { asNode, uuidKey } from '../graphql/node.js';
import {
  INSPIRATION_COLORS,
  INSPIRATION_MOODS,
  INSPIRATION_SEASONS,
  INSPIRATION_SETTINGS,
  INSPIRATION_STYLES,
  InspirationSearchInput,
  PhotoId,
  parseInspirationSearch,
} from './inspiration.inputs.js';
import { closedSet } from '../graphql/closed-set.js';
import { parsedBy } from '../graphql/input-schema.js';
import { z } from 'zod';

interface Source {
  type: string;
  name: string | null;
  slug: string | null;
  url: string | null;
  city: string | null;
  state: string | null;
}

const InspirationSource = builder.objectRef<Source>('InspirationSource').implement({
  description: 'The catalogue venue (type property) or vendor the photo shows, and its page.',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'property or vendor.' }),
    name: t.exposeString('name', { nullable: true, ...graphqlOnly('Venue or vendor name.') }),
    slug: t.exposeString('slug', { nullable: true, ...graphqlOnly('Venue or vendor slug.') }),
    url: t.expose('url', { type: 'URL', nullable: true, description: 'Absolute URL of the venue or vendor page.' }),
    city: t.exposeString('city', { nullable: true, ...graphqlOnly('City of the source.') }),
    state: t.exposeString('state', { nullable: true, ...graphqlOnly('State or region of the source.') }),
  }),
});

const InspirationVariants = builder.objectRef<Pick<PhotoRow, 'smallUrl' | 'mediumUrl' | 'largeUrl'>>('InspirationVariants').implement({
  description: 'The same image at three sizes (absolute URLs).',
  fields: (t) => ({
    small: t.expose('smallUrl', { type: 'URL', nullable: true, ...graphqlOnly('Small image (thumbnail).') }),
    medium: t.expose('mediumUrl', { type: 'URL', nullable: true, ...graphqlOnly('Medium image (same as imageUrl).') }),
    large: t.expose('largeUrl', { type: 'URL', nullable: true, ...graphqlOnly('Large image.') }),
  }),
});

const Style = closedSet('InspirationStyle', INSPIRATION_STYLES, 'An inspiration photo style (§2.12).');
const Setting = closedSet('InspirationSetting', INSPIRATION_SETTINGS, 'An inspiration photo setting (§2.12).');
const Color = closedSet('InspirationColor', INSPIRATION_COLORS, 'An inspiration photo color palette (§2.12).');
const Mood = closedSet('InspirationMood', INSPIRATION_MOODS, 'An inspiration photo mood (§2.12).');
const Season = closedSet('InspirationSeason', INSPIRATION_SEASONS, 'The season an inspiration photo shows (§2.12).');

const sourcePath = { property: 'venues', vendor: 'vendors' } as const;

export const InspirationPhoto = builder.prismaObject('InspirationPhoto', {
  description: 'A curated inspiration photo (§2.12), linked to its source venue or vendor.',
  fields: (t) => ({
    // `id` is the global id (asNode below). The UUID is photoId, what inspirationPhoto(id:) takes; REST keeps serving it
    // as `id` (its document selects `id: photoId`).
    photoId: t.expose('id', { type: 'UUID', description: 'UUID.' }),
    imageUrl: t.expose('imageUrl', { type: 'URL', nullable: true, description: 'Medium image, absolute URL.' }),
    alt: t.exposeString('alt', { nullable: true, ...graphqlOnly('Alternative text for screen readers.') }),
    source: t.field({
      ...graphqlOnly('The venue or vendor the photo shows.'),
      type: InspirationSource,
      resolve: (p, _args, ctx) => ({
        type: p.sourceType,
        name: p.sourceName,
        slug: p.sourceSlug,
        url: `${ctx.siteUrl}/${sourcePath[p.sourceType as keyof typeof sourcePath] ?? 'venues'}/${p.sourceSlug}`,
        city: p.sourceCity,
        state: p.sourceState,
      }),
    }),
    styles: t.expose('styles', { type: [Style.ref], description: Style.describe() }),
    settings: t.expose('settings', { type: [Setting.ref], description: Setting.describe() }),
    colors: t.expose('colors', { type: [Color.ref], description: Color.describe() }),
    moods: t.expose('moods', { type: [Mood.ref], description: Mood.describe() }),
    season: t.expose('season', { type: Season.ref, nullable: true, description: Season.describe('Null when the photo has no season.') }),
    description: t.exposeString('description', { nullable: true, ...graphqlOnly('What the photo shows, a sentence or two.') }),
    variants: t.field({ type: InspirationVariants, ...graphqlOnly('The image at three sizes.'), resolve: (p) => p }),
  }),
});

asNode(InspirationPhoto, { key: 'id', parseKey: uuidKey, load: (ids, _query, ctx) => inspirationPhotosById(ids, ctx) });

const InspirationPhotoConnection = connectionOf('InspirationPhoto', InspirationPhoto);
// The offset of the page and its size, for offset-style readers (REST §2.14: limit, offset, total, has_more).
builder.objectFields(InspirationPhotoConnection, (t) => ({
  limit: t.int({ description: 'Page size asked for.', resolve: (c) => (c.page as OffsetPage<PhotoRow>).limit }),
  offset: t.int({ description: 'Photos skipped before this page.', resolve: (c) => (c.page as OffsetPage<PhotoRow>).offset }),
}));

const deps = (ctx: RequestContext) => ({ readRows: ctx.readRows, cursors: ctx.cursors });

builder.queryFields((t) => ({
  inspirationPhotos: t.field({
    type: InspirationPhotoConnection,
    description: 'Curated inspiration photos in gallery order; each links back to its source venue or vendor (§4.13).',
    extensions: parsedBy(InspirationSearchInput),
    args: {
      style: t.arg({ type: Style.ref, description: 'Photos with this style among their styles.' }),
      setting: t.arg({ type: Setting.ref, description: 'Photos with this setting among their settings.' }),
      color: t.arg({ type: Color.ref, description: 'Photos with this palette among their colors.' }),
      mood: t.arg({ type: Mood.ref, description: 'Photos with this mood among their moods.' }),
      season: t.arg({ type: Season.ref, description: 'Photos of this season.' }),
      first: t.arg.int({ description: 'Page size, 1 to 100.', defaultValue: 20 }),
      offset: t.arg.int({ description: 'Photos to skip (0 or more); not with after.' }),
      after: t.arg.string({ description: 'pageInfo.endCursor of the previous page; not with offset.' }),
    },
    resolve: async (_root, args, ctx) => toConnection(await searchInspiration(parsedArguments(ctx, parseInspirationSearch, args), deps(ctx))),
  }),
  inspirationPhoto: t.field({
    type: InspirationPhoto,
    nullable: true,
    // REST answers a missing photo with 404, so its 200 `data` is never null (OpenAPI reads this).
    extensions: { semanticNonNull: true, ...parsedBy(z.object({ id: PhotoId })) },
    description: 'One inspiration photo by its UUID.',
    args: { id: t.arg.string({ required: true, description: 'The photo id (UUID).' }) },
    resolve: (_root, args, ctx) => getInspirationPhoto(args.id, ctx),
  }),
}));
