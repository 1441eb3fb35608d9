// Authored table: the 11 vendor categories (§2.9) with what makes each believable: business-name nouns,
// services, specialties, how they price (§2.8 price_unit: catering per person, DJs per event or hour,
// rentals per item) and what their photos show.

export type PriceUnit = 'per_person' | 'per_event' | 'per_hour' | 'per_item' | null;

/** [unit, lowest, highest, step, weight]: a starting price drawn from lowest..highest in steps. */
export type PriceModel = readonly [PriceUnit, number, number, number, number];

export interface VendorCategoryInfo {
  slug: string;
  name: string;
  /** Share of generated vendors. */
  weight: number;
  nouns: readonly string[];
  /** What the team does, for bios: "a documentary wedding photography studio". */
  trade: string;
  subcategories: readonly string[];
  specialties: readonly string[];
  prices: readonly PriceModel[];
  photoCategories: readonly string[];
  taglines: readonly string[];
}

export const VENDOR_CATEGORIES: readonly VendorCategoryInfo[] = [
  { slug: 'photography', name: 'Photography', weight: 20, trade: 'wedding photography studio',
    nouns: ['Photography', 'Photo Co.', 'Studios', 'Images', 'Photographs'],
    subcategories: ['Wedding Photography', 'Engagement Sessions', 'Elopement Photography', 'Film Photography', 'Drone Photography', 'Photo Booth'],
    specialties: ['Documentary', 'Fine Art', 'Editorial', 'Light & Airy', 'Moody & Dramatic', 'Candid', 'Black & White', 'LGBTQ+ Weddings',
      'Destination Weddings', 'Cultural Weddings', 'Elopements', 'Large Weddings'],
    prices: [['per_event', 1800, 9500, 100, 85], [null, 1500, 6000, 100, 15]],
    photoCategories: ['portrait', 'ceremony', 'reception', 'details', 'getting-ready', 'couple'],
    taglines: ['Honest, unposed wedding photography', 'Timeless images of your wedding day', 'Photographs that feel like the day felt',
      'Editorial wedding photography for modern couples', 'Documenting love stories since day one', 'Natural light, real moments'] },
  { slug: 'videography', name: 'Videography', weight: 9, trade: 'wedding film studio',
    nouns: ['Films', 'Cinema', 'Wedding Films', 'Motion', 'Film Co.'],
    subcategories: ['Highlight Films', 'Full Ceremony Films', 'Documentary Edits', 'Drone Footage', 'Livestreaming', 'Super 8'],
    specialties: ['Cinematic', 'Documentary', 'Super 8 Film', 'Same-Day Edits', 'Storytelling', 'Drone', 'Destination Weddings'],
    prices: [['per_event', 1500, 8500, 100, 85], [null, 1800, 6000, 100, 15]],
    photoCategories: ['ceremony', 'first-dance', 'highlights', 'behind-the-scenes', 'couple'],
    taglines: ['Wedding films you will watch every anniversary', 'Cinematic films, honest moments', 'Your day, in motion',
      'Story-driven wedding films', 'Films made to be rewatched'] },
  { slug: 'florists', name: 'Florists', weight: 11, trade: 'floral design studio',
    nouns: ['Florals', 'Floral Design', 'Flower Co.', 'Blooms', 'Botanicals', 'Flower Farm'],
    subcategories: ['Bridal Bouquets', 'Centerpieces', 'Ceremony Arches', 'Floral Installations', 'Boutonnieres & Corsages', 'Dried Flowers'],
    specialties: ['Garden Style', 'Wildflower', 'Minimalist', 'Lush & Romantic', 'Locally Grown', 'Sustainable Floristry', 'Tropical',
      'Large Installations', 'Dried & Preserved'],
    prices: [['per_event', 800, 6000, 50, 60], ['per_item', 85, 450, 5, 25], [null, 1000, 5000, 50, 15]],
    photoCategories: ['bouquet', 'centerpiece', 'ceremony-arch', 'boutonniere', 'installation'],
    taglines: ['Garden-style flowers for romantic weddings', 'Seasonal, locally grown wedding flowers', 'Flowers that feel wild and effortless',
      'Floral design with a sense of place', 'Lush florals, thoughtfully sourced'] },
  { slug: 'catering', name: 'Catering', weight: 11, trade: 'wedding caterer',
    nouns: ['Catering', 'Kitchen', 'Catering Co.', 'Provisions', 'Table', 'Hospitality'],
    subcategories: ['Plated Dinners', 'Family-Style', 'Buffets', 'Food Trucks', 'Bar Service', 'Rehearsal Dinners', 'Late-Night Snacks'],
    specialties: ['Farm to Table', 'BBQ', 'Mexican', 'Italian', 'Vegan & Vegetarian', 'Gluten-Free', 'Wood-Fired Pizza', 'Seafood',
      'Southern Comfort', 'Mediterranean', 'Kosher-Style', 'Halal'],
    prices: [['per_person', 38, 185, 1, 85], ['per_event', 2500, 15000, 250, 8], [null, 3000, 12000, 250, 7]],
    photoCategories: ['plated-dinner', 'appetizers', 'buffet', 'bar', 'dessert'],
    taglines: ['Seasonal menus, served with care', 'Farm-to-table wedding catering', 'Food your guests will talk about',
      'From cocktail hour to late-night bites', 'Big flavour, seamless service'] },
  { slug: 'wedding-planners', name: 'Wedding Planners', weight: 9, trade: 'wedding planning and design team',
    nouns: ['Events', 'Weddings & Events', 'Planning Co.', 'Event Design', 'Weddings'],
    subcategories: ['Full-Service Planning', 'Partial Planning', 'Day-of Coordination', 'Destination Planning', 'Event Design', 'Elopement Planning'],
    specialties: ['Luxury Weddings', 'Destination Weddings', 'Multi-Day Celebrations', 'Cultural Weddings', 'Micro Weddings',
      'Sustainable Weddings', 'Tented Weddings', 'LGBTQ+ Weddings'],
    prices: [['per_event', 1200, 15000, 100, 80], ['per_hour', 75, 200, 5, 10], [null, 2500, 12000, 100, 10]],
    photoCategories: ['tablescape', 'ceremony', 'reception', 'details'],
    taglines: ['Calm, organised, beautifully designed weddings', 'Planning and design for couples who want to enjoy the day',
      'Weddings without the stress', 'Every detail, handled', 'Thoughtful planning from yes to I do'] },
  { slug: 'music-and-entertainment', name: 'Music & Entertainment', weight: 10, trade: 'wedding music and entertainment company',
    nouns: ['Entertainment', 'Band', 'DJs', 'Music Co.', 'Strings', 'Sound'],
    subcategories: ['DJ', 'Live Band', 'String Quartet', 'Ceremony Musicians', 'Acoustic Duo', 'MC Services', 'Photo Booth'],
    specialties: ['Open-Format DJ', 'Motown & Soul', 'Jazz', 'Classical', 'Country', 'Latin', 'Top 40', 'Bilingual MC', 'Indie & Folk'],
    prices: [['per_event', 900, 12000, 50, 55], ['per_hour', 150, 650, 25, 35], [null, 1200, 6000, 100, 10]],
    photoCategories: ['live-band', 'dj-booth', 'dance-floor', 'ceremony-music'],
    taglines: ['A packed dance floor, all night', 'Live music for unforgettable receptions', 'Ceremony to last dance',
      'Music that reads the room', 'Your soundtrack, perfectly timed'] },
  { slug: 'hair-and-makeup', name: 'Hair & Makeup', weight: 8, trade: 'bridal hair and makeup team',
    nouns: ['Beauty', 'Bridal Beauty', 'Hair & Makeup', 'Artistry', 'Glam Studio'],
    subcategories: ['Bridal Hair', 'Bridal Makeup', 'Bridal Party Styling', 'Airbrush Makeup', 'Trials', 'On-Site Touch-Ups'],
    specialties: ['Natural Glam', 'Editorial', 'Long-Wear Makeup', 'Textured Hair', 'Updos', 'Mature Skin', 'Vintage Styling', 'Clean Beauty'],
    prices: [['per_person', 85, 275, 5, 80], ['per_event', 800, 3500, 50, 10], [null, 450, 1800, 50, 10]],
    photoCategories: ['bridal-hair', 'makeup', 'bridal-party', 'getting-ready'],
    taglines: ['Beauty that lasts from first look to last dance', 'Soft, radiant bridal glam', 'On-location bridal hair and makeup',
      'Look like yourself, only more rested', 'Calm mornings, flawless finishes'] },
  { slug: 'officiants', name: 'Officiants', weight: 5, trade: 'wedding officiant',
    nouns: ['Ceremonies', 'Officiant Services', 'Weddings', 'Vows'],
    subcategories: ['Civil Ceremonies', 'Religious Ceremonies', 'Interfaith Ceremonies', 'Elopements', 'Vow Renewals', 'Bilingual Ceremonies'],
    specialties: ['Personalised Ceremonies', 'Interfaith', 'Non-Religious', 'Bilingual', 'LGBTQ+ Weddings', 'Elopements', 'Humor'],
    prices: [['per_event', 250, 950, 25, 85], ['per_hour', 100, 250, 25, 5], [null, 300, 800, 25, 10]],
    photoCategories: ['ceremony', 'vows', 'couple'],
    taglines: ['Ceremonies written around your story', 'Warm, personal wedding ceremonies', 'Say it your way',
      'Heartfelt ceremonies, legally done right', 'The words that start it all'] },
  { slug: 'cakes-and-desserts', name: 'Cakes & Desserts', weight: 7, trade: 'wedding cake and dessert bakery',
    nouns: ['Cake Studio', 'Bakery', 'Cakes', 'Sweets', 'Patisserie'],
    subcategories: ['Wedding Cakes', 'Dessert Tables', 'Cupcakes', 'Macarons', 'Groom\u2019s Cakes', 'Donut Walls'],
    specialties: ['Buttercream', 'Sugar Flowers', 'Naked Cakes', 'Gluten-Free', 'Vegan', 'Modern Minimalist', 'Hand-Painted', 'Fresh Flowers'],
    prices: [['per_person', 4, 15, 1, 60], ['per_item', 250, 1800, 25, 30], [null, 350, 1500, 25, 10]],
    photoCategories: ['wedding-cake', 'dessert-table', 'cupcakes', 'details'],
    taglines: ['Cakes that taste as good as they look', 'Custom wedding cakes, baked from scratch', 'Sweet endings, beautifully made',
      'Buttercream dreams and sugar flowers', 'Desserts worth saving room for'] },
  { slug: 'rentals-and-decor', name: 'Rentals & Decor', weight: 6, trade: 'event rental and decor company',
    nouns: ['Rentals', 'Event Rentals', 'Decor & Rentals', 'Tent & Event', 'Vintage Rentals'],
    subcategories: ['Tents', 'Tables & Chairs', 'Linens', 'Lighting', 'Lounge Furniture', 'Dance Floors', 'Arches & Backdrops'],
    specialties: ['Vintage', 'Boho', 'Modern', 'Sailcloth Tents', 'Market Lighting', 'Farm Tables', 'Luxury Linens'],
    prices: [['per_item', 2, 450, 1, 70], ['per_event', 500, 8000, 50, 20], [null, 800, 5000, 50, 10]],
    photoCategories: ['tent', 'tablescape', 'lounge', 'lighting', 'ceremony'],
    taglines: ['Everything but the couple', 'Tents, tables and the little details', 'Curated rentals for styled celebrations',
      'Set the scene', 'Rentals with character'] },
  { slug: 'transportation', name: 'Transportation', weight: 4, trade: 'wedding transportation company',
    nouns: ['Limousine', 'Transportation', 'Coach Co.', 'Classic Cars', 'Chauffeurs'],
    subcategories: ['Guest Shuttles', 'Limousines', 'Vintage Cars', 'Party Buses', 'Getaway Cars', 'Trolleys'],
    specialties: ['Vintage Rolls-Royce', 'Classic Convertibles', 'Large Guest Shuttles', 'Airport Transfers', 'Trolley Service', 'Luxury Sedans'],
    prices: [['per_hour', 85, 350, 5, 65], ['per_event', 450, 2500, 25, 25], [null, 500, 2000, 25, 10]],
    photoCategories: ['vintage-car', 'limousine', 'shuttle', 'getaway-car'],
    taglines: ['Arrive in style', 'Getting everyone there, on time', 'Classic cars for timeless weddings',
      'Stress-free guest transportation', 'The ride is part of the memory'] },
];

/** Words for business names shared by every category ("Golden Hour Photography", "Salt & Pine Catering"). */
export const NAME_WORDS = ['Golden Hour', 'Wildflower', 'Evergreen', 'Magnolia', 'Juniper', 'Willow & Oak', 'Salt & Pine',
  'Honey & Fig', 'Olive & Thyme', 'Maple Lane', 'Birch & Bloom', 'Sweet Pea', 'Velvet', 'Ivory', 'Copper Kettle', 'Fox & Fern',
  'Little Bird', 'Lark', 'Sparrow', 'Marigold', 'Linen & Lace', 'Paper Moon', 'Bluebell', 'Hazel', 'Saffron', 'Peony', 'Cedar',
  'Sage', 'Ember', 'Meadowlark', 'Fieldstone', 'Lantern', 'Moonrise', 'Driftwood', 'Sunday', 'Stonefruit', 'Ginger', 'Bramble',
  'Silver Lining', 'True North', 'Northern Light', 'Wild Poppy', 'Blue Heron', 'Red Barn', 'Twin Pines', 'Rosemary', 'Tidewater',
  'High Desert', 'Open Road', 'Two Birds', 'Bloom & Vine', 'Laurel', 'Wren', 'Dogwood', 'Harvest Moon', 'Starling', 'Clover'];
