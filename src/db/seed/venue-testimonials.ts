// Guest testimonials: names shown as first name + last initial (§2.3 guest_name), ratings in half steps from
// 3.5 to 5, and reviews assembled so that lower ratings mention a real drawback.
import type { Random } from './random.js';

export const FIRST_NAMES = [
  'Emma',
  'Olivia',
  'Ava',
  'Sophia',
  'Isabella',
  'Mia',
  'Charlotte',
  'Amelia',
  'Harper',
  'Evelyn',
  'Abigail',
  'Emily',
  'Ella',
  'Grace',
  'Chloe',
  'Lily',
  'Hannah',
  'Zoe',
  'Nora',
  'Riley',
  'Maya',
  'Lucia',
  'Sofia',
  'Aisling',
  'Siobhan',
  'Giulia',
  'Chiara',
  'Valentina',
  'Camila',
  'Mariana',
  'Priya',
  'Aaliyah',
  'Jasmine',
  'Leah',
  'Sarah',
  'Rachel',
  'Lauren',
  'Megan',
  'Kate',
  'Claire',
  'Noah',
  'Liam',
  'James',
  'Benjamin',
  'Lucas',
  'Henry',
  'Alexander',
  'Daniel',
  'Michael',
  'Ethan',
  'Matthew',
  'Samuel',
  'David',
  'Joseph',
  'Owen',
  'Jack',
  'Ryan',
  'Nathan',
  'Marco',
  'Luca',
  'Diego',
  'Mateo',
  'Ciaran',
  'Sean',
  'Connor',
  'Andre',
  'Jordan',
  'Taylor',
  'Alex',
  'Sam',
  'Jamie',
  'Morgan',
];
const INITIALS = 'ABCDEFGHIJKLMNOPRSTVWY';

const OPENINGS = [
  'We could not have picked a better place for our wedding.',
  'Our wedding weekend here was everything we hoped for.',
  'This was the perfect home base for both of our families.',
  'We booked after one video call and never regretted it.',
  'From the first tour to checkout, everything felt easy.',
  'Having the whole property to ourselves made the weekend feel like a private retreat.',
  'We planned from overseas and were nervous, but the place delivered.',
  'Our guests are still talking about this weekend.',
];
const DETAILS = [
  'The ceremony spot was breathtaking, and the light at golden hour was unreal.',
  'Having everyone stay on site turned the wedding into a three-day party.',
  'The hosts answered every question quickly, even the odd ones.',
  'Our photographer could not stop talking about the backdrops.',
  'The kitchen handled everything our caterer needed.',
  'There were plenty of beds for the whole bridal party and both sets of parents.',
  'The welcome dinner on the terrace was a highlight.',
  'The getting-ready rooms had great natural light.',
  'The hot tub after the reception was a hit.',
  'Our planner said it was one of the smoothest load-ins she has had.',
  'Rain moved us indoors and it was still beautiful.',
  'The rehearsal dinner around the fire pit was our favourite night.',
  'Sunset photos by the water were the best of the whole gallery.',
  'The grounds were immaculate and the rooms spotless.',
  'The farewell brunch on the lawn was the perfect ending.',
];
const DRAWBACKS = [
  'Parking was tight for the number of guests we had.',
  'The road in is narrow, so book shuttles.',
  'Wi-Fi was patchy in the back bedrooms.',
  'The cleanup rules were stricter than we expected.',
  'It got chilly after dark, so bring heaters or blankets.',
  'A couple of bathrooms could use an update.',
  'Check-in was later than we would have liked for setup.',
  'Sound carries between some bedrooms.',
];
const CLOSINGS = [
  'Highly recommend.',
  'We are already planning an anniversary trip back.',
  'Thank you for making it so easy.',
  'Ten out of ten.',
  'Book it, you will not regret it.',
  'Worth every penny.',
  'Would absolutely do it again.',
];

export function guestName(r: Random): string | null {
  return r.chance(0.08) ? null : `${r.pick(FIRST_NAMES)} ${r.pick([...INITIALS])}.`;
}

/** 3.5, 4, 4.5 or 5 (mostly high), or null for the few guests who left no score. */
export function rating(r: Random): number | null {
  if (r.chance(0.1)) return null;
  return r.weighted([5, 4.5, 4, 3.5], [55, 28, 12, 5]);
}

export function review(r: Random, score: number | null): string | null {
  if (r.chance(0.04)) return null;
  const parts = [r.pick(OPENINGS), ...r.sample(DETAILS, r.int(1, 3))];
  if (score !== null && score <= 4) parts.push(r.pick(DRAWBACKS));
  else if (score === null && r.chance(0.3)) parts.push(r.pick(DRAWBACKS));
  if (r.chance(0.7)) parts.push(r.pick(CLOSINGS));
  return parts.join(' ');
}

const EVENT_START = Date.UTC(2019, 0, 1);
const EVENT_DAYS = Math.floor((Date.UTC(2026, 9, 31) - EVENT_START) / 86_400_000);

/** A wedding date between 2019 and October 2026, usually moved to the Saturday of its week. */
export function eventDate(r: Random): Date | null {
  if (r.chance(0.05)) return null;
  let day = r.int(0, EVENT_DAYS);
  if (r.chance(0.7)) {
    const weekday = new Date(EVENT_START + day * 86_400_000).getUTCDay();
    const toSaturday = (6 - weekday + 7) % 7;
    day = day + toSaturday <= EVENT_DAYS ? day + toSaturday : day - ((weekday + 1) % 7);
  }
  return new Date(EVENT_START + day * 86_400_000);
}
