import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());

// findBy… and waitFor give up after 10 s rather than 1 s: files run four at once on a busy 2-core machine, where a
// lazily imported module can take longer than a second to arrive. A pass still comes as soon as the DOM is right.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no <dialog> behaviour: the smallest stand-in for showModal/close
// (real dialogs, focus and Escape are covered by the browser tests).
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.hasAttribute('open')) return;
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
}

// A page title for the « Erreur : » prefix of the error summaries to go on and come off.
document.title = 'Page de test';
