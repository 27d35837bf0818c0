/**
 * The warning before the session ends (EspaceLayout.astro's dialog; WCAG 2.2.1): SESSION_WARNING_MS before the end
 * (`data-remaining-ms`, counted from the page's load, so the browser's clock may be wrong), a modal dialog offers
 * « Rester connecté », which renews the session on the server (POST /espace/session) and puts the end further; at the
 * end, it says so and that what is typed stays on the page and is kept when posted. Other tabs of the space hear of a
 * renewal (BroadcastChannel) and put their end further too.
 */
const dialog = document.querySelector<HTMLDialogElement>('dialog.session-dialog');

if (dialog) {
  const warningMs = Number(dialog.dataset.warningMs);
  let deadline = Date.now() + Number(dialog.dataset.remainingMs);
  const timers: ReturnType<typeof setTimeout>[] = [];
  const title = dialog.querySelector<HTMLElement>('#session-titre')!;
  const renew = dialog.querySelector<HTMLButtonElement>('[data-renew]')!;
  const signIn = dialog.querySelector<HTMLAnchorElement>('[data-sign-in]')!;
  const channel = 'BroadcastChannel' in window ? new BroadcastChannel('espace-session') : undefined;

  /** Shows the paragraphs of `states` (ending, ended, failed) and hides the others. */
  const show = (...states: string[]) => {
    for (const part of dialog.querySelectorAll<HTMLElement>('[data-state]')) {
      part.hidden = !states.includes(part.dataset.state!);
    }
  };

  const open = () => {
    if (!dialog.open) dialog.showModal();
  };

  const warn = () => {
    const end = dialog.querySelector('time[data-end]')!;
    end.textContent = new Date(deadline).toLocaleTimeString('fr-FR', { hour: '2-digit', minute: '2-digit' });
    end.setAttribute('datetime', new Date(deadline).toISOString());
    title.textContent = title.dataset.endingTitle!;
    show('ending');
    renew.hidden = false;
    signIn.hidden = true;
    open();
    renew.focus();
  };

  const ended = () => {
    title.textContent = 'Votre session a pris fin';
    show('ended');
    renew.hidden = true;
    signIn.hidden = false;
    signIn.href = `/espace/connexion?suite=${encodeURIComponent(location.pathname + location.search)}`;
    signIn.target = '_blank';
    open();
    signIn.focus();
  };

  /** Sets the end to `at` (ms since epoch) and the warning before it. */
  const schedule = (at: number) => {
    deadline = at;
    for (const timer of timers.splice(0)) clearTimeout(timer);
    timers.push(setTimeout(warn, Math.max(0, deadline - warningMs - Date.now())));
    timers.push(setTimeout(ended, Math.max(0, deadline - Date.now())));
  };

  renew.addEventListener('click', async () => {
    renew.disabled = true;
    const response = await fetch('/espace/session', {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: new URLSearchParams(),
    }).catch(() => undefined);
    const answer = response?.ok ? ((await response.json().catch(() => ({}))) as { resteMs?: number }) : {};
    renew.disabled = false;
    if (answer.resteMs) {
      schedule(Date.now() + answer.resteMs);
      channel?.postMessage(deadline);
      dialog.close();
    } else if (response?.status === 403) ended();
    else show('ending', 'failed');
  });

  dialog.querySelector('[data-close]')!.addEventListener('click', () => dialog.close());
  channel?.addEventListener('message', (event: MessageEvent<number>) => {
    schedule(event.data);
    if (dialog.open && !renew.hidden) dialog.close();
  });
  schedule(deadline);
}
