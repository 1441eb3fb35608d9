import type { RestRoute } from '../rest/route.js';
import { parseInspirationSearch } from './inspiration.inputs.js';
import { checkedWith } from '../graphql/context.js';

const LIST_ITEM = /* GraphQL */ `
  fragment InspirationPhotoListItem on InspirationPhoto {
    id: photoId imageUrl alt
    source { type name slug url city state }
    styles settings colors moods season
  }`;

export const inspirationRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/inspiration',
    operationId: 'searchInspiration',
    summary: 'Search inspiration photos',
    description:
      'Curated inspiration photos in gallery order, each linked back to its source venue or vendor page. ' +
      'A photo matches a style, setting, color or mood filter when the value is among its values. ' +
      'A value outside its enumeration is refused with 400 invalid_parameters listing the allowed values.',
    tag: 'Inspiration',
    document: /* GraphQL */ `
      query searchInspiration($style: InspirationStyle, $setting: InspirationSetting, $color: InspirationColor, $mood: InspirationMood,
        $season: InspirationSeason, $limit: Int, $offset: Int) {
        inspirationPhotos(style: $style, setting: $setting, color: $color, mood: $mood, season: $season, first: $limit, offset: $offset) {
          totalCount limit offset
          pageInfo { hasNextPage }
          nodes { ...InspirationPhotoListItem }
        }
      }
      ${LIST_ITEM}`,
    envelope: { kind: 'offsetPage' },
    check: (args) => checkedWith(parseInspirationSearch, args),
    errors: ['invalid_parameters'],
    paramDocs: {
      style: { description: 'Style.' },
      setting: { description: 'Setting.' },
      color: { description: 'Color palette.' },
      mood: { description: 'Mood.' },
      season: { description: 'Season.' },
      limit: { description: 'Page size.', default: 20 },
      offset: { description: 'Photos to skip.', default: 0 },
    },
  },
  {
    method: 'GET',
    path: '/inspiration/{id}',
    operationId: 'getInspirationPhoto',
    summary: 'Inspiration photo detail',
    description: 'One photo by its id (a UUID from search results), with its description and image variants.',
    tag: 'Inspiration',
    document: /* GraphQL */ `
      query getInspirationPhoto($id: String!) {
        inspirationPhoto(id: $id) {
          ...InspirationPhotoListItem
          description
          variants { small medium large }
        }
      }
      ${LIST_ITEM}`,
    envelope: { kind: 'object' },
    errors: ['invalid_id', 'inspiration_photo_not_found'],
    paramDocs: { id: { description: 'Photo id (UUID).', example: '0b8e7f5e-7a51-4c1f-9d38-2f4f1f0f6a11' } },
  },
];
