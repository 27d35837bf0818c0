/**
 * The article form's script (ArticleForm.astro): a new article's slug follows its title, and a picture too heavy or
 * not an image is refused at once with the server's own French message, before a long upload.
 */
import { ARTICLE_MESSAGES, slugify } from './articles';

// While the editor types a new article's title, its slug follows until the editor changes the slug by hand.
const slug = document.querySelector<HTMLInputElement>('input[data-slug-from]');
const title = document.querySelector<HTMLInputElement>('#titre');
if (slug && title) {
  let following = !slug.value || slug.value === slugify(title.value);
  title.addEventListener('input', () => following && (slug.value = slugify(title.value)));
  slug.addEventListener('input', () => (following = slug.value === ''));
}

// A picture too heavy or not an image is refused at once, before a long upload.
const file = document.querySelector<HTMLInputElement>('#image');
const error = document.querySelector<HTMLElement>('#image-erreur');
file?.addEventListener('change', () => {
  const chosen = file.files?.[0];
  const max = Number(file.dataset.maxBytes);
  const message = !chosen
    ? ''
    : chosen.size > max
      ? ARTICLE_MESSAGES.tooLarge(chosen.size)
      : /^image\/(jpeg|png|webp)$/.test(chosen.type)
        ? ''
        : /hei[cf]/i.test(chosen.type) || /\.hei[cf]$/i.test(chosen.name)
          ? ARTICLE_MESSAGES.heic
          : ARTICLE_MESSAGES.notImage;
  if (message) file.value = '';
  file.setCustomValidity('');
  if (error) {
    error.textContent = message;
    error.hidden = !message;
  }
  file.setAttribute('aria-invalid', message ? 'true' : 'false');
  if (message) error?.setAttribute('role', 'alert');
});
