/**
 * The rich-text editor's link dialog (a native modal <dialog>, named by its heading): search the site's pages and
 * articles by title and choose one, or type an address (https://…, mailto:…, tel:…, /page), ruled by safeLinkAddress
 * as the server rules it; « Retirer le lien » when the text already has one. Opening focuses the search; Escape,
 * « Annuler » or a choice closes it, and the editor takes the focus back (RichTextField).
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { safeLinkAddress } from '../../../lib/link-address';
import { ARTICLE_MESSAGES } from './articles';
import { searchTargets, type LinkTarget } from './link-targets';

/** Props: whether it is open, the link's current address, the site's targets, and what to do with the outcome. */
export interface LinkDialogProps {
  open: boolean;
  /** The address of the link under the cursor, '' for none. */
  current: string;
  targets: readonly LinkTarget[];
  /** A chosen address (already safe) and, for a page of the site, its title (the text when nothing is selected). */
  onChoose: (href: string, titre?: string) => void;
  onRemove: () => void;
  onClose: () => void;
}

/** See the module's comment. */
export default function LinkDialog({ open, current, targets, onChoose, onRemove, onClose }: LinkDialogProps) {
  const dialog = useRef<HTMLDialogElement | null>(null);
  const search = useRef<HTMLInputElement | null>(null);
  const [query, setQuery] = useState('');
  const [address, setAddress] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  const found = searchTargets(targets, query);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setQuery('');
      setAddress(current);
      setError(undefined);
      element.showModal();
      search.current?.focus();
    } else if (!open && element.open) element.close();
  }, [open, current]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const safe = safeLinkAddress(address);
    if (!address.trim()) setError('Écrivez une adresse, ou choisissez une page du site dans la liste.');
    else if (safe === undefined) setError(ARTICLE_MESSAGES.badLink(address));
    else onChoose(safe);
  };

  return (
    // Escape fires `cancel` then `close`: both end in onClose, which the editor takes as « nothing changes ».
    <dialog ref={dialog} className="site-dialog link-dialog" aria-labelledby={`${id}-titre`} onClose={onClose}>
      <h2 id={`${id}-titre`}>Lien</h2>
      <div className="field">
        <label htmlFor={`${id}-chercher`}>Chercher une page ou un article du site</label>
        <input
          ref={search}
          id={`${id}-chercher`}
          type="search"
          value={query}
          autoComplete="off"
          aria-describedby={`${id}-trouves`}
          onChange={(event) => setQuery(event.target.value)}
        />
        <p className="field__help" id={`${id}-trouves`} aria-live="polite">
          {query.trim()
            ? found.length === 0
              ? 'Aucune page ne porte ces mots dans son titre.'
              : `${found.length} page${found.length > 1 ? 's' : ''} trouvée${found.length > 1 ? 's' : ''} :`
            : 'Tapez un mot du titre, par exemple « école » ou « kermesse ».'}
        </p>
        {found.length > 0 && (
          <ul className="link-dialog__results">
            {found.map((target) => (
              <li key={`${target.kind}:${target.href}:${target.titre}`}>
                <button
                  type="button"
                  className="link-dialog__result"
                  onClick={() => onChoose(target.href, target.titre)}
                >
                  {target.titre}{' '}
                  <span className="link-dialog__address">
                    {target.kind === 'article' ? 'Article' : 'Page'} · {target.href}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-adresse`}>Ou l’adresse du lien</label>
          <p className="field__help" id={`${id}-aide`}>
            https://… pour un autre site, mailto:… pour un e-mail, tel:… pour un numéro, /… pour une page du site.
          </p>
          {error && (
            <p className="field__error" id={`${id}-erreur`} role="alert">
              {error}
            </p>
          )}
          <input
            id={`${id}-adresse`}
            value={address}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={[`${id}-aide`, error && `${id}-erreur`].filter(Boolean).join(' ')}
            onChange={(event) => setAddress(event.target.value)}
          />
        </div>
        <div className="actions">
          <button className="button" type="submit">
            Mettre ce lien
          </button>
          {current && (
            <button className="button button--ghost" type="button" onClick={onRemove}>
              Retirer le lien
            </button>
          )}
          <button className="button button--ghost" type="button" onClick={onClose}>
            Annuler
          </button>
        </div>
      </form>
    </dialog>
  );
}
