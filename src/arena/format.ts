// How MiniArena's sites write dates, money and slugs.
/** Days since the epoch → "YYYY-MM-DD". */
export function isoDate(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** Minutes since the epoch → "YYYY-MM-DD HH:MM". */
export function isoMinute(minute: number): string {
  return new Date(minute * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

export function dayOf(iso: string): number {
  return Math.floor(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) / 86_400_000);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2023-04-09" → "Apr 9, 2023" as the sites display dates. */
export function displayDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${(MONTHS[Number(m) - 1] ?? '').slice(0, 3)} ${Number(d)}, ${y}`;
}

export function monthName(m: number): string {
  return MONTHS[m - 1] ?? '';
}

export function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
