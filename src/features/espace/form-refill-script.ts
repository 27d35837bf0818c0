/**
 * A form given back after the session ended (EspaceLayout.astro's `#espace-reprise`: the post's fields in order): the
 * page's form that posts to this page and names the most of them is filled again (fillForm). Then the layout's message
 * about it, or else a refusal's summary (FormErrors.astro) or a save’s confirmation (`data-focus-on-load`), takes the
 * focus, so that a screen reader says it first. A save confirmed here ends the browser draft sent with it.
 */
import { fillForm } from './fill-form';
import { endSentDraft } from './sent-draft';

endSentDraft(location.search);

const kept = document.getElementById('espace-reprise');

if (kept) {
  const fields = JSON.parse(kept.textContent || '[]') as [string, string][];
  const names = new Set(fields.map(([name]) => name));
  const forms = [...document.querySelectorAll<HTMLFormElement>('main form[method="post"]')].filter(
    (form) => new URL(form.action).pathname === location.pathname,
  );
  const matches = (form: HTMLFormElement) =>
    [...form.elements].filter((element) => names.has((element as HTMLInputElement).name)).length;
  const form = forms.toSorted((a, b) => matches(b) - matches(a))[0];
  if (form) fillForm(form, fields);
}

document.querySelector<HTMLElement>('[data-focus-on-load]')?.focus();
