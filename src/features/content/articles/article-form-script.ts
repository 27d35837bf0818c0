/**
 * The article form's script (ArticleForm.astro): a new article's slug follows its title; in every file input of the
 * form, a heavy photo is made lighter before it is sent (shrink-picture.ts), and a picture too heavy or not an image is
 * refused at once with the server's own French message, before a long upload; pictures too heavy together for one post
 * are refused before it is sent.
 */
import { ARTICLE_MESSAGES, megabytes, slugify } from './articles';
import { isHeic, MAX_SENT_BYTES, SHRINK_ABOVE_BYTES, shrinkPicture } from './shrink-picture';

// While the editor types a new article's title, its slug follows until the editor changes the slug by hand.
const slug = document.querySelector<HTMLInputElement>('input[data-slug-from]');
const title = document.querySelector<HTMLInputElement>('#titre');
if (slug && title) {
  let following = !slug.value || slug.value === slugify(title.value);
  title.addEventListener('input', () => following && (slug.value = slugify(title.value)));
  slug.addEventListener('input', () => (following = slug.value === ''));
}

// A heavy photo (or a HEIC one the browser reads) is made lighter before it is sent; one too heavy or not an image
// is refused at once, before a long upload. A post while a photo is being prepared waits for it. Every file input of
// the form (its picture, pictogram, picture of the text) is handled the same, with its own `-etat` and `-erreur`.
const preparing = new Set<Promise<void>>();

/** Replaces the chosen file by a lighter one when it helps; tells the editor what was done in `state`. */
async function prepare(input: HTMLInputElement, chosen: File, state: HTMLElement | null): Promise<File> {
  if (chosen.size <= SHRINK_ABOVE_BYTES && !isHeic(chosen)) return chosen;
  if (state) state.textContent = 'Préparation de la photo…';
  // A browser without one of the APIs (DataTransfer, createImageBitmap) sends the original, as without JavaScript.
  const lighter = await shrinkPicture(chosen).catch(() => undefined);
  if (!lighter) {
    if (state) state.textContent = '';
    return chosen;
  }
  try {
    const files = new DataTransfer();
    files.items.add(lighter);
    input.files = files.files;
  } catch {
    if (state) state.textContent = '';
    return chosen;
  }
  if (state)
    state.textContent = `Photo allégée pour l’envoi, de ${megabytes(chosen.size)} à ${megabytes(lighter.size)}.`;
  return lighter;
}

/** Shows `message` under `file` ('' clears it). */
function showRefusal(file: HTMLInputElement, message: string): void {
  const error = document.getElementById(`${file.id}-erreur`);
  if (error) {
    error.textContent = message;
    error.hidden = !message;
  }
  file.setAttribute('aria-invalid', message ? 'true' : 'false');
  if (message) error?.setAttribute('role', 'alert');
}

/** Checks (and lightens) the file chosen in `file`, showing a refusal under it. */
function watch(file: HTMLInputElement): void {
  const state = document.getElementById(`${file.id}-etat`);
  file.addEventListener('change', () => {
    const original = file.files?.[0];
    if (state) state.textContent = '';
    const task = (async () => {
      const chosen = original && (await prepare(file, original, state));
      const max = Number(file.dataset.maxBytes);
      const message = !chosen
        ? ''
        : chosen.size > max
          ? ARTICLE_MESSAGES.tooLarge(chosen.size)
          : /^image\/(jpeg|png|webp)$/.test(chosen.type)
            ? ''
            : isHeic(chosen)
              ? ARTICLE_MESSAGES.heic
              : ARTICLE_MESSAGES.notImage;
      if (message) file.value = '';
      file.setCustomValidity('');
      showRefusal(file, message);
    })();
    preparing.add(task);
    void task.finally(() => preparing.delete(task));
  });
}

const form = document.querySelector<HTMLFormElement>('form.article-form');
const inputs = [...(form?.querySelectorAll<HTMLInputElement>('input[type="file"]') ?? [])];
for (const file of inputs) watch(file);

// Netlify refuses a post past about 4.5 MB of files, before the site's code runs (its own English page, and what was
// typed is lost): when the chosen pictures weigh more together, the heaviest is taken out and the editor told why.
form?.addEventListener('submit', (event) => {
  if (preparing.size > 0) {
    event.preventDefault();
    const { submitter } = event;
    void Promise.all(preparing).then(() => form.requestSubmit(submitter));
    return;
  }
  const chosen = inputs.flatMap((input) => (input.files?.[0] ? [{ input, size: input.files[0].size }] : []));
  const total = chosen.reduce((sum, { size }) => sum + size, 0);
  if (total <= MAX_SENT_BYTES) return;
  event.preventDefault();
  const heaviest = chosen.toSorted((a, b) => b.size - a.size)[0]!.input;
  heaviest.value = '';
  showRefusal(heaviest, ARTICLE_MESSAGES.tooMuchAtOnce(total, MAX_SENT_BYTES));
  heaviest.focus();
});
