/**
 * « Paramètres d'affichage » (DSFR's pattern): theme, text size, text spacing and motion, chosen on /affichage and
 * remembered on the device in localStorage (no cookie, so no consent banner). Each choice other than the default is a
 * data attribute on <html> (`data-theme="sombre"`, `data-texte="grand"`, `data-espacement="large"`,
 * `data-animations="reduites"`) that src/styles/tokens.css and global.css read. DISPLAY_SCRIPT sets them before the
 * first paint: an inline script in every layout's <head>, allowed by its hash in astro.config.mjs's policy.
 */

/** The localStorage key of the settings (a JSON object of DisplaySettings). */
export const DISPLAY_STORAGE_KEY = 'affichage';

/** Each setting's values, the default first (the default sets no attribute: the device's own setting applies). */
export const DISPLAY_CHOICES = {
  theme: ['systeme', 'clair', 'sombre'],
  texte: ['normal', 'grand'],
  espacement: ['normal', 'large'],
  animations: ['systeme', 'reduites'],
} as const;

export type DisplaySetting = keyof typeof DISPLAY_CHOICES;
export type DisplaySettings = { [K in DisplaySetting]: (typeof DISPLAY_CHOICES)[K][number] };

const SETTINGS = Object.keys(DISPLAY_CHOICES) as DisplaySetting[];

/** The stored settings `raw` (JSON or null), every unknown or missing value read as its default. */
export function parseSettings(raw: string | null): DisplaySettings {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(raw ?? '{}');
    if (parsed && typeof parsed === 'object') stored = parsed as Record<string, unknown>;
  } catch {
    // An unreadable value: the defaults.
  }
  return Object.fromEntries(
    SETTINGS.map((key) => {
      const values: readonly string[] = DISPLAY_CHOICES[key];
      const value = stored[key];
      return [key, typeof value === 'string' && values.includes(value) ? value : values[0]];
    }),
  ) as DisplaySettings;
}

/** Sets `settings` on `root` (<html>) as data attributes, removing those at their default. */
export function applySettings(root: HTMLElement, settings: DisplaySettings): void {
  for (const key of SETTINGS) {
    if (settings[key] === DISPLAY_CHOICES[key][0]) delete root.dataset[key];
    else root.dataset[key] = settings[key];
  }
}

/** The settings kept on this device (defaults when none, or when storage is off). */
export function loadSettings(): DisplaySettings {
  try {
    return parseSettings(localStorage.getItem(DISPLAY_STORAGE_KEY));
  } catch {
    return parseSettings(null);
  }
}

/** Keeps `settings` on this device; false when storage is off (private browsing): they apply to this page only. */
export function saveSettings(settings: DisplaySettings): boolean {
  try {
    localStorage.setItem(DISPLAY_STORAGE_KEY, JSON.stringify(settings));
    return true;
  } catch {
    return false;
  }
}

/** The values that set an attribute, by setting: `{"theme":["clair","sombre"],…}`. */
const NON_DEFAULT = Object.fromEntries(SETTINGS.map((key) => [key, DISPLAY_CHOICES[key].slice(1)]));

/**
 * The inline script of every page's <head> (a few hundred bytes, no module): applySettings of the stored settings
 * before the first paint, so that a dark theme never flashes light. Its text is hashed into the Content-Security-Policy
 * (astro.config.mjs): any change here changes the hash with it.
 */
export const DISPLAY_SCRIPT =
  `try{var s=JSON.parse(localStorage.getItem(${JSON.stringify(DISPLAY_STORAGE_KEY)})),` +
  `d=document.documentElement.dataset,c=${JSON.stringify(NON_DEFAULT)};` +
  `for(var k in c)if(c[k].indexOf(s[k])>=0)d[k]=s[k]}catch(e){}`;
