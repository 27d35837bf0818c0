/**
 * A rich-text field of the space's forms (TipTap on ProseMirror): before hydration, and without JavaScript, a plain
 * <textarea> of HTML named `name`; once hydrated, an editor with a toolbar in French and a hidden field `name` holding
 * its HTML, so that the form posts the same field either way. The server sanitises that HTML with the build's own
 * sanitiser (sanitizeEditorHtml) and refuses scripts. When the editor cannot hold the initial HTML whole (a picture, a
 * video, a table… outside its schema: editor-coverage.ts), the textarea stays, with a note saying why
 * (ARTICLE_MESSAGES.htmlOnly): nothing stored is ever dropped silently.
 *
 * The toolbar follows the WAI-ARIA toolbar pattern: one Tab stop, arrow keys (Home, End) between buttons, toggles
 * with `aria-pressed`. Headings are the site's intertitles (<h3>, <h4>): the page's own title is the <h1>.
 *
 * In a list, Tab and Shift+Tab indent and outdent an item (TipTap's list keys), so Tab does not leave the field there:
 * Escape moves the focus to the help under the editor, which says so (tied with aria-describedby), and Tab goes on to
 * the next field from there. The editor also listens for `rich-text:set` events (detail `{ name, html }`) on the
 * document, by which the article form's browser draft puts its text back.
 */
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { safeLinkAddress } from '../../../lib/link-address';
import { ARTICLE_MESSAGES } from './articles';
import { editorLoses } from './editor-coverage';

/** Props: the field's `name`, `label` and `id`, its label's id, help ids, the initial HTML, whether it is refused. */
export interface RichTextFieldProps {
  name: string;
  /** The field's label, which names its toolbar (« Mise en forme : Introduction »). */
  label: string;
  id: string;
  labelId: string;
  describedBy?: string;
  initial: string;
  invalid?: boolean;
  rows?: number;
}

interface Tool {
  label: string;
  active?: (editor: Editor) => boolean;
  run: (editor: Editor) => void;
}

/** The toolbar's buttons, in order. */
const TOOLS: Tool[] = [
  { label: 'Gras', active: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() },
  { label: 'Italique', active: (e) => e.isActive('italic'), run: (e) => e.chain().focus().toggleItalic().run() },
  {
    label: 'Intertitre',
    active: (e) => e.isActive('heading', { level: 3 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
  },
  {
    label: 'Sous-intertitre',
    active: (e) => e.isActive('heading', { level: 4 }),
    run: (e) => e.chain().focus().toggleHeading({ level: 4 }).run(),
  },
  {
    label: 'Liste à puces',
    active: (e) => e.isActive('bulletList'),
    run: (e) => e.chain().focus().toggleBulletList().run(),
  },
  {
    label: 'Liste numérotée',
    active: (e) => e.isActive('orderedList'),
    run: (e) => e.chain().focus().toggleOrderedList().run(),
  },
  {
    label: 'Citation',
    active: (e) => e.isActive('blockquote'),
    run: (e) => e.chain().focus().toggleBlockquote().run(),
  },
  {
    label: 'Lien',
    active: (e) => e.isActive('link'),
    run: (e) => {
      const current = (e.getAttributes('link').href as string | undefined) ?? 'https://';
      const href = window.prompt(
        'Adresse du lien (https://…, mailto:… ou /page du site). Vide : retirer le lien.',
        current,
      );
      if (href === null) return;
      const safe = safeLinkAddress(href);
      if (href.trim() && safe === undefined) {
        window.alert(ARTICLE_MESSAGES.badLink(href));
        return;
      }
      const chain = e.chain().focus().extendMarkRange('link');
      if (safe === undefined) chain.unsetLink().run();
      else chain.setLink({ href: safe }).run();
    },
  },
  { label: 'Annuler', run: (e) => e.chain().focus().undo().run() },
  { label: 'Rétablir', run: (e) => e.chain().focus().redo().run() },
];

/** See the module's comment. */
export default function RichTextField({
  name,
  label,
  id,
  labelId,
  describedBy,
  initial,
  invalid,
  rows = 8,
}: RichTextFieldProps) {
  const [html, setHtml] = useState(initial);
  const [focusIndex, setFocusIndex] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const keysHelp = useRef<HTMLParagraphElement | null>(null);
  const keysId = `${id}-clavier`;
  const editor = useEditor({
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [3, 4] },
        code: false,
        codeBlock: false,
        // The server's rule (refusedLinks): a stored link it refuses is not taken in, so the HTML field stays.
        link: {
          openOnClick: false,
          HTMLAttributes: { rel: null, target: null },
          isAllowedUri: (url) => safeLinkAddress(url) !== undefined,
        },
      }),
    ],
    content: initial,
    editorProps: {
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        'aria-describedby': [describedBy, keysId].filter(Boolean).join(' '),
        ...(invalid && { 'aria-invalid': 'true' }),
        class: 'rich-text__area prose',
      },
      handleKeyDown: (_view, event) => {
        if (event.key !== 'Escape') return false;
        keysHelp.current?.focus();
        return true;
      },
    },
    onUpdate: ({ editor: current }) => setHtml(current.isEmpty ? '' : current.getHTML()),
  });
  const pressed = useEditorState({
    editor,
    selector: ({ editor: current }) => TOOLS.map((tool) => (current && tool.active ? tool.active(current) : false)),
  });
  useEffect(() => {
    if (editor && !initial.trim()) setHtml('');
  }, [editor, initial]);
  useEffect(() => {
    const set = (event: Event) => {
      const { name: target, html: text } = (event as CustomEvent<{ name: string; html: string }>).detail;
      if (editor && target === name) editor.commands.setContent(text, { emitUpdate: true });
    };
    document.addEventListener('rich-text:set', set);
    return () => document.removeEventListener('rich-text:set', set);
  }, [editor, name]);
  // Once, on what was stored: what the editor would write of it, against it.
  const lossy = useMemo(() => (editor ? editorLoses(initial, editor.getHTML()) : false), [editor, initial]);

  if (!editor || lossy) {
    const noteId = `${id}-html`;
    // The textarea keeps its place (and what was typed in it before the script ran) when the note comes before it.
    return (
      <>
        {lossy && (
          <p className="field__help rich-text__note" id={noteId}>
            {ARTICLE_MESSAGES.htmlOnly}
          </p>
        )}
        <textarea
          id={id}
          name={name}
          rows={rows}
          defaultValue={initial}
          aria-describedby={[describedBy, lossy && noteId].filter(Boolean).join(' ') || undefined}
          aria-invalid={invalid || undefined}
          className="rich-text__fallback"
        />
      </>
    );
  }

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = TOOLS.length - 1;
    const next = { ArrowRight: focusIndex + 1, ArrowLeft: focusIndex - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const index = next < 0 ? last : next > last ? 0 : next;
    setFocusIndex(index);
    buttons.current[index]?.focus();
  };

  return (
    <div className="rich-text">
      <div
        className="rich-text__toolbar"
        role="toolbar"
        aria-label={`Mise en forme : ${label}`}
        aria-controls={id}
        onKeyDown={move}
      >
        {TOOLS.map((tool, index) => (
          <button
            key={tool.label}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            className="rich-text__tool"
            tabIndex={index === focusIndex ? 0 : -1}
            aria-pressed={tool.active ? Boolean(pressed?.[index]) : undefined}
            onClick={() => {
              setFocusIndex(index);
              tool.run(editor);
            }}
          >
            {tool.label}
          </button>
        ))}
      </div>
      <EditorContent editor={editor} />
      <p className="field__help rich-text__keys" id={keysId} ref={keysHelp} tabIndex={-1}>
        Au clavier, dans une liste : Tab décale l’élément vers la droite, Maj+Tab vers la gauche. Pour sortir de la zone
        de texte, appuyez sur Échap, puis sur Tab.
      </p>
      <input type="hidden" name={name} value={html} />
    </div>
  );
}
