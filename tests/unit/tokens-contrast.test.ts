/**
 * The design tokens' colour pairs (src/styles/tokens.css), in the light and the dark theme: every boundary of a control
 * and every icon against what it stands on at 3:1 at least (WCAG 1.4.11, RGAA 3.3), text at 4.5:1 (1.4.3). axe
 * measures text on the pages; it does not measure boundaries and icons, hence this test.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const tokens = readFileSync(new URL('../../src/styles/tokens.css', import.meta.url), 'utf8');
const buttons = readFileSync(new URL('../../src/styles/buttons.css', import.meta.url), 'utf8');

type Theme = 'light' | 'dark';

/** A colour token's value in `theme` (`#rrggbb`, or `transparent`), from `light-dark(a, b)` or a single value. */
function token(name: string, theme: Theme): string {
  const value = new RegExp(`--asso-${name}:\\s*([^;]+);`).exec(tokens)?.[1]?.trim();
  if (!value) throw new Error(`--asso-${name} is not in tokens.css`);
  const pair = /^light-dark\(\s*([^,]+),\s*([^)]+)\)$/.exec(value);
  return pair ? pair[theme === 'light' ? 1 : 2]!.trim() : value;
}

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG contrast ratio of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The sun button's border (buttons.css): a fixed colour in both themes. */
const sunBorder = /\.button--sun\s*{[^}]*border-color:\s*(#[0-9a-f]{6})/i.exec(buttons)?.[1] ?? '';

/** Pairs that must reach 3:1: [what, foreground, background] as token names or `#hex`. */
const BOUNDARIES: [string, string, string][] = [
  ['field and choice borders on a surface', 'border-strong', 'surface'],
  ['field and choice borders on the page', 'border-strong', 'cream'],
  ['teal buttons, ghost buttons’ borders and icons, on a surface', 'teal', 'surface'],
  ['the same on the page', 'teal', 'cream'],
  ['the focus ring on the page', 'teal', 'cream'],
  ['the focus ring on a soft teal background (hovered ghost button)', 'teal', 'teal-soft'],
  ['an invalid field’s border', 'coral-dark', 'surface'],
  ['the sun button against a dark surface (its fill is its boundary)', 'sun', 'surface'],
];

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  const colour = (name: string) => (name.startsWith('#') ? name : token(name, theme));

  it('every UI boundary and icon pair of the tokens is at least 3:1, in both themes', () => {
    const weak = BOUNDARIES.filter(([what]) => theme === 'dark' || !what.includes('dark surface'))
      .map(([what, fg, bg]) => [what, Math.round(contrast(colour(fg), colour(bg)) * 100) / 100] as const)
      .filter(([, ratio]) => ratio < 3);
    expect(weak).toEqual([]);
  });

  it('the sun button’s border holds 3:1 where its fill does not (light theme)', () => {
    if (theme === 'light') expect(contrast(sunBorder, colour('surface'))).toBeGreaterThanOrEqual(3);
  });

  it('a picto drawn for the light theme (#0b4f5c) on its plate, and the plate on the header, at 3:1', () => {
    const plate = colour('picto-plate');
    const behind = plate === 'transparent' ? colour('surface') : plate;
    expect(contrast('#0b4f5c', behind)).toBeGreaterThanOrEqual(3);
    if (plate !== 'transparent') expect(contrast(plate, colour('surface'))).toBeGreaterThanOrEqual(3);
  });

  it('text on buttons is at least 4.5:1', () => {
    expect(contrast(colour('on-teal'), colour('teal'))).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colour('on-sun'), colour('sun'))).toBeGreaterThanOrEqual(4.5);
  });
});
