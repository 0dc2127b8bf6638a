/**
 * What the rows of bench/generate.ts are made of: stable ids, the password every generated user
 * shares, the words of names, tags and searches, the hulls and weapons of loadouts, and units of time.
 */

export const BENCH_PASSWORD = 'bench-password';
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** A UUID v4-shaped id derived from a counter: stable across runs, so benchmarks can name rows. */
export function benchUuid(kind: number, index: number): string {
  const hex = (index >>> 0).toString(16).padStart(12, '0');
  return `b0000000-0000-4000-8${kind.toString(16).padStart(3, '0')}-${hex}`;
}

export const WORDS = [
  'storm',
  'kraken',
  'raider',
  'merchant',
  'broadside',
  'ember',
  'tide',
  'reef',
  'gale',
  'corsair',
  'siren',
  'anchor',
  'mortar',
  'ballista',
  'culverin',
  'torpedo',
  'bombard',
  'fire',
  'frost',
  'plague',
  'brawler',
  'sniper',
  'tank',
  'hunter',
  'phantom',
  'fortress',
  'leviathan',
  'tempest',
  'viper',
  'wraith',
  'harbor',
  'cutlass',
  'monsoon',
  'typhoon',
  'scourge',
  'howler',
];

export const HULLS = ['dhow', 'cutter', 'hulk', 'brigantine', 'snow'];
export const SIDE_WEAPONS = ['culverin1', 'culverin2', 'demicannon1', 'mortar1'];
export const FRONT_WEAPONS = ['longGun1', 'bombard1', 'torpedo1', 'rocket1'];
