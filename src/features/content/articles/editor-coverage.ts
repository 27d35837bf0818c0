/**
 * Whether the rich-text editor can hold some stored HTML without losing any of it: RichTextField keeps the plain HTML
 * textarea, with a note, when the editor's own output of that HTML lacks an element, an attribute or text the HTML had
 * (a picture, a video, a table, a `lang`, an <h5>… that its schema does not know). Browser only (a <template> parses).
 */

/** Tags the editor writes under another name, the same meaning: <b> becomes <strong>, <i> becomes <em>. */
const SAME_TAG: Record<string, string> = { b: 'strong', i: 'em' };

/** Attributes the sanitiser adds again on every save (src/lib/html.server.ts): the editor need not keep them. */
const ADDED_ON_SAVE = new Set(['img loading', 'a rel']);

/** Every element of `html` as « tag name=value… » (attributes sorted), and its text without white space. */
function featuresOf(html: string): Set<string> {
  const template = document.createElement('template');
  template.innerHTML = html;
  const features = new Set<string>();
  for (const element of template.content.querySelectorAll('*')) {
    const tag = SAME_TAG[element.localName] ?? element.localName;
    const attributes = [...element.attributes]
      .filter(({ name }) => !ADDED_ON_SAVE.has(`${tag} ${name}`))
      .map(({ name, value }) => `${name}=${value}`)
      .toSorted();
    features.add([tag, ...attributes].join(' '));
  }
  features.add(`text:${(template.content.textContent ?? '').replace(/\s+/g, '')}`);
  return features;
}

/**
 * True when `output` (what the editor writes after loading `stored`) lacks an element, attribute or text of `stored`
 * (the sanitised stored HTML): editing it there would drop them on the next save. Paragraphs the editor adds around
 * plain text, and elements merged (two <em> in a row), are no loss.
 */
export function editorLoses(stored: string, output: string): boolean {
  const kept = featuresOf(output);
  return [...featuresOf(stored)].some((feature) => !kept.has(feature));
}
