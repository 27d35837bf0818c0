/**
 * Fills a form again with fields in posted order (`[name, value]`, a repeated name in order): check boxes and radios
 * by value, a multiple select by its options, file inputs left empty; a hidden field also tells a rich-text editor of
 * that name (RichTextField.tsx listens for `rich-text:set`), whose hidden input holds its HTML.
 */
export function fillForm(form: HTMLFormElement, fields: [name: string, value: string][]): void {
  const left = new Map<string, string[]>();
  for (const [name, value] of fields) left.set(name, [...(left.get(name) ?? []), value]);
  for (const element of [...form.elements]) {
    const control = element as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    const values = left.get(control.name);
    if (!values || control.type === 'file' || control.type === 'submit') continue;
    if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) {
      control.checked = values.includes(control.value);
    } else if (control instanceof HTMLSelectElement && control.multiple) {
      for (const option of control.options) option.selected = values.includes(option.value);
    } else if (values.length > 0) {
      control.value = values.shift()!;
      if (control.type === 'hidden') {
        const detail = { name: control.name, html: control.value };
        document.dispatchEvent(new CustomEvent('rich-text:set', { detail }));
      }
    }
  }
}

/** The text fields of `form` as it would post them (files left out). */
export const formFields = (form: HTMLFormElement): [string, string][] =>
  [...new FormData(form)].flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : []));
