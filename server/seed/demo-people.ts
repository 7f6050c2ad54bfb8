/** The demo artists: invented people with invented careers, planned from a seed. */
import type { users } from '#drizzle/tables.ts';
import { titleFor, type Rng } from './art-generator.ts';

const DAY = 24 * 60 * 60 * 1000;

export const DEMO_EMAIL_DOMAIN = 'demo.gallery-tree.local';

const FIRST_NAMES = [
  'Maya',
  'Tomás',
  'Inès',
  'Kwame',
  'Hana',
  'Elliot',
  'Priya',
  'Lucía',
  'Dmitri',
  'Amara',
  'Jonah',
  'Sofia',
  'Mateo',
  'Yuki',
  'Noor',
  'Felix',
  'Adaeze',
  'Oskar',
  'Camille',
  'Rafael',
  'Leila',
  'Theo',
  'Ingrid',
  'Malik',
  'Beatriz',
  'Arjun',
  'Clara',
  'Emeka',
  'Rosa',
  'Sam',
  'Aiyana',
  'Wen',
  'Elena',
  'Kofi',
  'Mira',
  'Ravi',
  'Greta',
  'Idris',
];
const LAST_NAMES = [
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Haddad',
  'Reyes',
  'Kowalski',
  'Mensah',
  'Fischer',
  'Castillo',
  'Novak',
  'Sato',
  'Brennan',
  'Quintero',
  'Abara',
  'Halvorsen',
  'Ferreira',
  'Park',
  'Nakamura',
  'Osei',
  'Rahman',
  'Whitfield',
  'Sørensen',
  'Ibarra',
  'Chen',
  'Almeida',
  'Duarte',
  'Varga',
  'Mwangi',
  'Petrov',
  'Lund',
  'Serrano',
  'Kaur',
  'Aydin',
];

interface Place {
  city: string;
  country: string;
  state: string;
  zipcode: string;
}

const PLACES: Place[] = [
  { city: 'Portland', country: 'US', state: 'OR', zipcode: '97209' },
  { city: 'Austin', country: 'US', state: 'TX', zipcode: '78702' },
  { city: 'Chicago', country: 'US', state: 'IL', zipcode: '60622' },
  { city: 'Asheville', country: 'US', state: 'NC', zipcode: '28801' },
  { city: 'Santa Fe', country: 'US', state: 'NM', zipcode: '87501' },
  { city: 'Oakland', country: 'US', state: 'CA', zipcode: '94607' },
  { city: 'Brooklyn', country: 'US', state: 'NY', zipcode: '11211' },
  { city: 'Minneapolis', country: 'US', state: 'MN', zipcode: '55408' },
  { city: 'Savannah', country: 'US', state: 'GA', zipcode: '31401' },
  { city: 'Providence', country: 'US', state: 'RI', zipcode: '02903' },
  { city: 'Detroit', country: 'US', state: 'MI', zipcode: '48201' },
  { city: 'Tucson', country: 'US', state: 'AZ', zipcode: '85701' },
  { city: 'Lisbon', country: 'PT', state: '', zipcode: '1100-148' },
  { city: 'Glasgow', country: 'GB', state: '', zipcode: 'G3 6AX' },
  { city: 'Montréal', country: 'CA', state: '', zipcode: 'H2T 1S6' },
  { city: 'Mexico City', country: 'MX', state: '', zipcode: '06700' },
  { city: 'Kyoto', country: 'JP', state: '', zipcode: '604-8005' },
  { city: 'Accra', country: 'GH', state: '', zipcode: '' },
  { city: 'Melbourne', country: 'AU', state: '', zipcode: '3065' },
  { city: 'Berlin', country: 'DE', state: '', zipcode: '10999' },
  { city: 'Oaxaca', country: 'MX', state: '', zipcode: '68000' },
  { city: 'Reykjavík', country: 'IS', state: '', zipcode: '101' },
  { city: 'Bogotá', country: 'CO', state: '', zipcode: '' },
  { city: 'Marseille', country: 'FR', state: '', zipcode: '13001' },
  { city: 'Seoul', country: 'KR', state: '', zipcode: '04524' },
  { city: 'Cape Town', country: 'ZA', state: '', zipcode: '8001' },
  { city: 'Lagos', country: 'NG', state: '', zipcode: '' },
  { city: 'Tbilisi', country: 'GE', state: '', zipcode: '0105' },
  { city: 'Valparaíso', country: 'CL', state: '', zipcode: '' },
  { city: 'Bergen', country: 'NO', state: '', zipcode: '5003' },
];

const PRACTICES = [
  'a painter',
  'a printmaker',
  'a textile artist',
  'a self-taught painter',
  'a muralist',
  'an illustrator',
  'a ceramicist who also paints',
  'a digital artist',
  'a collage artist',
  'a former architect turned painter',
];
const BIO_SUBJECTS = [
  'colour and the way it changes with the weather',
  'maps, both real and imagined',
  'the geometry hidden in everyday objects',
  'light on water',
  'the rhythm of the city at night',
  'quilts and the women who made them',
  'old signage and faded posters',
  'the landscapes of childhood summers',
  'music, especially the moment before a song begins',
  'gardens and their patient order',
];
const BIO_CLOSINGS = [
  'When not in the studio, they teach weekend classes for children.',
  'They work from a shared studio above a bakery.',
  'Their work has been shown in small galleries and one very large laundromat.',
  'They keep a sketchbook for every year since they were twelve.',
  'They are currently learning to build their own frames.',
  'They believe every neighbourhood deserves a gallery.',
];
const VENUES = [
  'Harbour Street Gallery',
  'The Long Room',
  'Northlight Project Space',
  'Riverside Arts Centre',
  'Studio 9 Collective',
  'The Old Mill',
  'Cedar Hall',
  'Open Door Gallery',
  'Lantern Works',
  'The Annex',
];
const SCHOOLS = [
  'Riverside School of Art',
  'Northfield College of Design',
  'the Lakeshore Art Institute',
  'Westbrook University',
  'the Hillcrest Academy of Fine Arts',
  'Eastgate Polytechnic',
];
const DEGREES = [
  'BFA, Painting',
  'MFA, Studio Art',
  'BA, Graphic Design',
  'Certificate in Printmaking',
  'BA, Art History',
  'MA, Textile Design',
];

export interface PlannedArtist {
  row: Omit<typeof users.$inferInsert, 'token' | 'passwordHash' | 'role'> & { createdAt: number };
  /** Signed up recently: holds a reservation, has published nothing yet. */
  newcomer: boolean;
}

function emailPart(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ø/g, 'o')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** Invented artists, sign-ups spread over the year; the last few joined in the past three weeks. */
export function planArtists(rng: Rng, count: number, planted: number, now: number): PlannedArtist[] {
  const firsts = rng.shuffle(FIRST_NAMES);
  const lasts = rng.shuffle(LAST_NAMES);
  const newcomers = Math.min(5, Math.floor(count / 4));
  const seen = new Set<string>();
  const artists: PlannedArtist[] = [];
  for (let i = 0; i < count; i++) {
    const firstname = firsts[i % firsts.length]!;
    const lastname = lasts[(i + Math.floor(i / lasts.length)) % lasts.length]!;
    let local = `${emailPart(firstname)}.${emailPart(lastname)}`;
    for (let n = 2; seen.has(local); n++) local = `${emailPart(firstname)}.${emailPart(lastname)}${n}`;
    seen.add(local);
    const newcomer = i >= count - newcomers;
    const createdAt = newcomer
      ? Math.round(now - rng.range(8, 21) * DAY)
      : Math.round(planted + ((i + rng.range(0, 0.9)) / Math.max(1, count - newcomers)) * (now - 40 * DAY - planted));
    const place = rng.pick(PLACES);
    const shows = Array.from({ length: rng.int(0, 4) }, () => {
      const year = new Date(createdAt).getUTCFullYear() - rng.int(0, 12);
      return `${year}: ${titleFor(rng.int(0, 1e9))}, ${rng.pick(['group show', 'solo show', 'two-person show', 'open call'])}, ${rng.pick(VENUES)}, ${rng.pick(PLACES).city}`;
    })
      .sort()
      .reverse();
    const slug = `${emailPart(firstname)}-${emailPart(lastname)}`;
    artists.push({
      newcomer,
      row: {
        email: `${local}@${DEMO_EMAIL_DOMAIN}`,
        firstname,
        lastname,
        showEmail: rng.chance(0.3),
        description: `${firstname} is ${rng.pick(PRACTICES)} based in ${place.city}, drawn to ${rng.pick(BIO_SUBJECTS)}. ${rng.pick(BIO_CLOSINGS)}`,
        exhibitions: shows.join('\n'),
        education: rng.chance(0.8)
          ? `${rng.pick(DEGREES)}, ${rng.pick(SCHOOLS)}`
          : 'Self-taught; years of evening classes.',
        personalUrl: rng.chance(0.5) ? `https://www.${slug}.example` : '',
        zipcode: place.zipcode,
        country: place.country,
        state: place.state,
        city: place.city,
        createdAt,
        updatedAt: createdAt,
      },
    });
  }
  return artists;
}
