/** Country list of the pre-registration and payment forms, France first (spec §3), from i18n-iso-countries (ISO 3166-1 alpha-2, French names). */
import countries from 'i18n-iso-countries';
import fr from 'i18n-iso-countries/langs/fr.json';

countries.registerLocale(fr);

/** A selectable country. */
export interface Country {
  /** ISO 3166-1 alpha-2 code, e.g. "FR". */
  code: string;
  /** French name, e.g. "France", "Allemagne". */
  name: string;
}

/** Code selected by default and listed first. */
export const DEFAULT_COUNTRY = 'FR';

/** Every country: France first, then the others in French alphabetical order. */
export function countryOptions(): Country[] {
  const names = countries.getNames('fr', { select: 'official' });
  const collator = new Intl.Collator('fr');
  const others = Object.entries(names)
    .filter(([code]) => code !== DEFAULT_COUNTRY)
    .map(([code, name]) => ({ code, name }))
    .toSorted((a, b) => collator.compare(a.name, b.name));
  return [{ code: DEFAULT_COUNTRY, name: names[DEFAULT_COUNTRY] ?? 'France' }, ...others];
}

/** True when `code` is a known ISO 3166-1 alpha-2 code. */
export function isCountryCode(code: string): boolean {
  return countries.isValid(code) && code.length === 2;
}
