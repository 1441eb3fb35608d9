import type { RestRoute } from './route.js';
import { venueRoutes } from '../venues/venues.rest.js';
import { vendorRoutes } from '../vendors/vendors.rest.js';
import { pricingRoutes } from '../pricing/pricing.rest.js';
import { knowledgeRoutes } from '../knowledge/knowledge.rest.js';
import { inspirationRoutes } from '../inspiration/inspiration.rest.js';
import { blogRoutes } from '../blog/blog.rest.js';
import { inquiryRoutes } from '../inquiries/inquiries.rest.js';

/** Every /api/v1 route; a new endpoint adds its module's route entries here. */
export const restRoutes: RestRoute[] = [
  ...venueRoutes,
  ...vendorRoutes,
  ...pricingRoutes,
  ...knowledgeRoutes,
  ...inspirationRoutes,
  ...blogRoutes,
  ...inquiryRoutes,
];
