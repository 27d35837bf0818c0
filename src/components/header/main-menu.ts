/**
 * `<main-menu>` (MainMenu.astro): the burger (`data-burger`) and the sub-menu buttons (`data-submenu-toggle`) as
 * disclosures. A click on one toggles it and closes the other sub-menus; a tap or click outside the menu, or the focus
 * leaving it (Tab past the last link), closes everything open, the burger's panel too: nothing stays open over the
 * page; Escape closes the last one open in document order and focuses its button.
 */
class MainMenu extends HTMLElement {
  connectedCallback() {
    const burger = this.querySelector<HTMLButtonElement>('[data-burger]');
    const toggles = [...this.querySelectorAll<HTMLButtonElement>('[data-submenu-toggle]')];
    // In document order: the burger before the sub-menus it holds, for Escape's "last opened".
    const buttons = burger ? [burger, ...toggles] : toggles;
    const setOpen = (button: HTMLButtonElement, open: boolean) => button.setAttribute('aria-expanded', String(open));
    const isOpen = (button: HTMLButtonElement) => button.getAttribute('aria-expanded') === 'true';
    const closeAll = () => buttons.filter(isOpen).forEach((button) => setOpen(button, false));

    document.addEventListener('click', ({ target }) => {
      const clicked = buttons.find((button) => button.contains(target as Node));
      if (!clicked && this.contains(target as Node)) return;
      if (!clicked) return closeAll();
      // One sub-menu open at a time; the burger's panel holds them.
      if (clicked !== burger)
        toggles.filter((button) => button !== clicked).forEach((button) => setOpen(button, false));
      setOpen(clicked, !isOpen(clicked));
    });
    this.addEventListener('focusout', ({ relatedTarget }) => {
      // relatedTarget is null when the focus leaves the page (another window): the menu stays as it was.
      if (relatedTarget instanceof Node && !this.contains(relatedTarget)) closeAll();
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
