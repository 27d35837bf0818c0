/**
 * `<main-menu>` (MainMenu.astro): the burger (`data-burger`) and the sub-menu buttons (`data-submenu-toggle`) as
 * disclosures. A click on one toggles it and closes the other sub-menus; a click outside the menu closes the sub-menus
 * (not the burger's panel); Escape closes the last one open in document order and focuses its button.
 */
class MainMenu extends HTMLElement {
  connectedCallback() {
    const burger = this.querySelector<HTMLButtonElement>('[data-burger]');
    const toggles = [...this.querySelectorAll<HTMLButtonElement>('[data-submenu-toggle]')];
    // In document order: the burger before the sub-menus it holds, for Escape's "last opened".
    const buttons = burger ? [burger, ...toggles] : toggles;
    const setOpen = (button: HTMLButtonElement, open: boolean) => button.setAttribute('aria-expanded', String(open));
    const isOpen = (button: HTMLButtonElement) => button.getAttribute('aria-expanded') === 'true';

    document.addEventListener('click', ({ target }) => {
      const clicked = buttons.find((button) => button.contains(target as Node));
      if (!clicked && this.contains(target as Node)) return;
      // One sub-menu open at a time; a click outside the menu closes them (wide screens) but not the burger's panel.
      if (clicked !== burger)
        toggles.filter((button) => button !== clicked).forEach((button) => setOpen(button, false));
      if (clicked) setOpen(clicked, !isOpen(clicked));
    });
    document.addEventListener('keydown', (event) => {
      const open = buttons.findLast(isOpen);
      if (event.key !== 'Escape' || !open) return;
      setOpen(open, false);
      open.focus();
    });
  }
}

customElements.define('main-menu', MainMenu);
