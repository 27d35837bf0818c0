/**
 * Country list of the pre-registration and payment forms, from i18n-iso-countries (ISO 3166-1 alpha-2, French names).
 */
import countries from 'i18n-iso-countries';
import fr from 'i18n-iso-countries/langs/fr.json';

countries.registerLocale(fr);

/** A selectable country: ISO 3166-1 alpha-2 `code` ("FR") and French `name` ("France"). */
export type Country = { code: string; name: string };

/** Every country: France first (spec §3, selected by default), then the others in French alphabetical order. */
export function countryOptions(): Country[] {
  const collator = new Intl.Collator('fr');
  const all = Object.entries(countries.getNames('fr', { select: 'official' })).map(([code, name]) => ({ code, name }));
  const france = (country: Country) => Number(country.code === 'FR');
  return all.toSorted((a, b) => france(b) - france(a) || collator.compare(a.name, b.name));
}
