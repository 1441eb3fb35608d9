import type { RestRoute } from './route.js';
import { venueRoutes } from '../venues/venues.rest.js';
import { vendorRoutes } from '../vendors/vendors.rest.js';
import { pricingRoutes } from '../pricing/pricing.rest.js';

/** Every /api/v1 route; a new endpoint adds its module's route entries here. */
export const restRoutes: RestRoute[] = [...venueRoutes, ...vendorRoutes, ...pricingRoutes];
