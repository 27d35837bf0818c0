/** An article's online status: the last change, the online version's pull and the last publish request compared. */
import { describe, expect, it } from 'vitest';
import { LATE_MS, onlineStatus, onlineStatusText } from '../../src/features/content/publishing/online-status';

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 27, 9, minutes));
const facts = { draft: false, changedAt: at(10), onlineAt: at(5), lastRequest: undefined, now: at(30).getTime() };

describe('onlineStatus', () => {
  it('a draft is never online, whatever the rest', () => {
    expect(onlineStatus({ ...facts, draft: true, onlineAt: at(20) })).toEqual({ state: 'brouillon' });
  });

  it('online once the online version was pulled after the last change (or the article has no change)', () => {
    expect(onlineStatus({ ...facts, onlineAt: at(12) })).toEqual({ state: 'en-ligne', since: at(12) });
    expect(onlineStatus({ ...facts, changedAt: undefined })).toEqual({ state: 'en-ligne', since: at(5) });
  });

  it('in progress after a launched publish newer than the change; late past ten minutes', () => {
    const launched = { date: at(11), resultat: 'lancee' } as const;
    expect(onlineStatus({ ...facts, lastRequest: launched, now: at(15).getTime() })).toEqual({
      state: 'en-cours',
      askedAt: at(11),
      late: false,
    });
    const late = onlineStatus({ ...facts, lastRequest: launched, now: at(11).getTime() + LATE_MS + 1 });
    expect(late).toMatchObject({ state: 'en-cours', late: true });
  });

  it('still to publish after a change with no launched publish since (refused, too soon, or older)', () => {
    for (const lastRequest of [
      { date: at(11), resultat: 'attente' as const },
      { date: at(11), resultat: 'erreur' as const },
      { date: at(8), resultat: 'lancee' as const },
      undefined,
    ]) {
      expect(onlineStatus({ ...facts, lastRequest }), JSON.stringify(lastRequest)).toEqual({
        state: 'a-publier',
        changedAt: at(10),
      });
    }
  });
});

describe('onlineStatusText', () => {
  it('says « En ligne depuis … » and « Publication en cours… » in French, Paris time', () => {
    expect(onlineStatusText({ state: 'en-ligne', since: at(12) }).headline).toBe(
      'En ligne depuis le 27 novembre 2026 à 10:12.',
    );
    expect(onlineStatusText({ state: 'en-cours', askedAt: at(11), late: false })).toEqual({
      headline: 'Publication en cours…',
      detail:
        'Demandée le 27 novembre 2026 à 10:11. Le site sera à jour dans quelques minutes : rechargez cette page pour ' +
        'le vérifier.',
    });
    expect(onlineStatusText({ state: 'a-publier', changedAt: at(10) }).detail).toBe(
      'La version enregistrée le 27 novembre 2026 à 10:10 sera sur le site après « Publier ».',
    );
  });
});
