/**
 * What a visitor typed in a server-rendered form before its island hydrated (`client:interaction` loads it at the first
 * focus or key, and the visitor keeps typing meanwhile): React keeps those values on screen when it hydrates but its
 * state still holds the defaults, so a form island adopts them at once, before its next render writes the defaults
 * back over them. useHydrated tells a form what it renders for a browser without its script.
 */
import { useSyncExternalStore } from 'react';

const noChange = () => () => {};

/**
 * False in the server's HTML and in the render that hydrates it, true from the render after (and in a render with no
 * server HTML): what a form shows only without its script (a submit button, a field its script adds when needed) is
 * rendered while false. The one re-render after hydration is React's own for a store whose server value differs.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
}

/**
 * The fields of `form` (named as the keys of `defaults`) whose control no longer shows its default: a text control's
 * `value`, a checkbox's `checked` (for a boolean default), a radio group's checked value ('' when none). Controls
 * missing from the form are left out.
 */
export function valuesTypedBefore<T extends Record<string, string | boolean>>(
  form: HTMLFormElement,
  defaults: T,
): Partial<T> {
  const typed: Partial<Record<string, string | boolean>> = {};
  for (const [name, initial] of Object.entries(defaults)) {
    const control = form.elements.namedItem(name);
    if (!(
      control instanceof HTMLInputElement ||
      control instanceof HTMLTextAreaElement ||
      control instanceof HTMLSelectElement ||
      control instanceof RadioNodeList
    ))
      continue;
    const now = typeof initial === 'boolean' ? (control as HTMLInputElement).checked : control.value;
    if (now !== initial) typed[name] = now;
  }
  return typed as Partial<T>;
}
