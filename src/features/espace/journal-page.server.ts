/**
 * What /espace/journal shows (admin): the access log filtered by person, kind and days (a GET form: `?qui=`,
 * `?action=`, `?du=`, `?au=` as `YYYY-MM-DD`, and `?apres=` for the older entries), each entry's person by name when
 * the bureau gave one and its document in words (access-words.server.ts).
 */
import { adminFirestore } from '../../lib/firebase-admin.server';
import {
  ACCESS_ACTION_LABELS,
  isAccessAction,
  latestAccess,
  parisDayStart,
  type AccessEntry,
  type AccessFilter,
} from './access-log.server';
import { describeEntries } from './access-words.server';
import { listAccounts } from './accounts.server';
import { adminAuth, type StaffSession } from './auth.server';
import { failureOf } from './server-calls.server';

/** One row of the log as the page shows it. */
export interface JournalRow {
  entry: AccessEntry;
  who: string;
  what: string;
  words: string;
}

/** The page: its rows, the filter as read, the people and kinds to choose from, the older page's address. */
export interface JournalView {
  rows: JournalRow[];
  filter: AccessFilter;
  filtered: boolean;
  people: { value: string; label: string }[];
  kinds: { value: string; label: string }[];
  after: string | undefined;
  older?: string;
  newest: string;
  status: number;
  error?: string;
}

/** The journal page for `url`'s query, read by `session`. Never throws: a failure is the view's French `error`. */
export async function journalPage(session: StaffSession | undefined, url: URL): Promise<JournalView> {
  const query = url.searchParams;
  const text = (name: string, max: number) => (query.get(name) ?? '').trim().slice(0, max);
  const action = query.get('action');
  const filter: AccessFilter = {
    ...(text('qui', 320) ? { qui: text('qui', 320) } : {}),
    ...(isAccessAction(action) ? { action } : {}),
    ...(parisDayStart(text('du', 10)) ? { from: text('du', 10) } : {}),
    ...(parisDayStart(text('au', 10)) ? { to: text('au', 10) } : {}),
  };
  const after = query.get('apres') ?? undefined;
  const kept = new URLSearchParams(
    Object.entries({ qui: filter.qui, action: filter.action, du: filter.from, au: filter.to }).filter(
      (pair): pair is [string, string] => Boolean(pair[1]),
    ),
  );
  const view: JournalView = {
    rows: [],
    filter,
    filtered: kept.size > 0,
    people: [],
    kinds: Object.entries(ACCESS_ACTION_LABELS).map(([value, label]) => ({ value, label })),
    after,
    newest: `/espace/journal${kept.size > 0 ? `?${kept}` : ''}`,
    status: 200,
  };
  try {
    const db = adminFirestore();
    const [page, accounts] = await Promise.all([
      latestAccess(session, db, { after, filter }),
      listAccounts(session, adminAuth()).catch((failure: unknown) => {
        console.error('[espace/journal] accounts', failure);
        return [];
      }),
    ]);
    const names = new Map(accounts.map((account) => [account.email, account.name]));
    const words = await describeEntries(db, page.entries);
    view.rows = page.entries.map((entry, index) => ({
      entry,
      who: names.get(entry.qui) ? `${names.get(entry.qui)} (${entry.qui})` : entry.qui,
      what: ACCESS_ACTION_LABELS[entry.action],
      words: words[index] ?? entry.objet,
    }));
    const emails = new Set([...accounts.filter((account) => account.roles.length > 0).map((a) => a.email)]);
    if (filter.qui) emails.add(filter.qui);
    view.people = [...emails].toSorted().map((email) => ({
      value: email,
      label: names.get(email) ? `${names.get(email)} (${email})` : email,
    }));
    if (page.olderFrom) view.older = `/espace/journal?${new URLSearchParams([...kept, ['apres', page.olderFrom]])}`;
  } catch (failure) {
    ({ status: view.status, message: view.error } = failureOf(failure, '[espace/journal]'));
  }
  return view;
}
