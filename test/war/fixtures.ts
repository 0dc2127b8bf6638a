// War test data shared by the HTTP suite (war.test.ts) and the in-process one (service.test.ts).
export const MINUTE = 60_000;
export const DAY = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString();
export const at = (text: string) => Date.parse(text);

export const ZONES = [
  { id: 'red-isle', name: 'Red Isle' },
  { id: 'open-ocean', name: 'Open Ocean' },
];
export const COMPANIES = [
  { id: 'crimson', name: 'Crimson Reef', color: '#c0392b' },
  { id: 'sable', name: 'Sable Tide', color: '#34495e' },
];
