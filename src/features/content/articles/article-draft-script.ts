/**
 * The article form's draft in the browser (sessionStorage, src/lib/post-json.ts): what is typed is kept while typing, per
 * article and tab; back on the form (a reload, a crash, a session that ended), a note offers to take the text back or
 * to drop it. A save confirmed by the page that follows ends the draft that was sent (sent-draft.ts, run by the
 * layout on every page of the space).
 */
import { loadDraft, saveDraft } from '../../../lib/post-json';
import { fillForm, formFields } from '../../espace/fill-form';
import { SENT_DRAFT } from '../../espace/sent-draft';

/** What is kept: the form's fields and when (ms since epoch). */
interface ArticleDraft {
  fields: [string, string][];
  at: number;
}

const form = document.querySelector<HTMLFormElement>('form[data-draft]');

if (form) {
  const key = form.dataset.draft!;
  const same = (a: [string, string][], b: [string, string][]) => JSON.stringify(a) === JSON.stringify(b);
  // What the page shows: a draft equal to it is nothing to offer.
  let shown = formFields(form);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const keep = () => {
    clearTimeout(timer);
    const fields = formFields(form);
    if (!same(fields, shown)) saveDraft(key, { fields, at: Date.now() } satisfies ArticleDraft);
  };
  // The editors' hidden fields follow their text a moment later: the draft waits for them.
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(keep, 400);
  };
  form.addEventListener('input', soon);
  form.addEventListener('change', soon);
  addEventListener('pagehide', keep);
  form.addEventListener('submit', () => {
    keep();
    saveDraft(SENT_DRAFT, key);
  });

  const draft = loadDraft(key) as ArticleDraft | null;
  if (draft?.fields && !same(draft.fields, shown)) offer(draft);

  /** The note above the form: take the draft back, or drop it. */
  function offer(found: ArticleDraft): void {
    const note = document.createElement('div');
    note.className = 'outcome outcome--ok article-draft';
    note.setAttribute('role', 'region');
    note.setAttribute('aria-label', 'Texte non enregistré');
    const when = new Date(found.at).toLocaleString('fr-FR', { dateStyle: 'short', timeStyle: 'short' });
    const text = document.createElement('p');
    text.textContent = `Un texte non enregistré de cet article est gardé dans ce navigateur (${when}).`;
    const actions = document.createElement('p');
    actions.className = 'actions';
    const take = button('Reprendre ce texte', 'button');
    const drop = button('L’effacer', 'button button--ghost');
    actions.append(take, drop);
    note.append(text, actions);
    form!.before(note);
    take.addEventListener('click', () => {
      fillForm(form!, found.fields);
      note.remove();
      document.getElementById('titre')?.focus();
    });
    drop.addEventListener('click', () => {
      saveDraft(key);
      shown = formFields(form!);
      note.remove();
      document.getElementById('titre')?.focus();
    });
  }
}

/** A button of the note. */
function button(label: string, className: string): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = label;
  return element;
}
