/** The forms' sender: the JSON POST (src/lib/post-json.ts) with the submission key `envoi` and the honeypot. */
import { postJson, type SubmitResult } from '../../lib/post-json';
import { HONEYPOT_FIELD } from './form-rules';

/**
 * The sender of one form to `url`: it adds the key `envoi` (kept while the payload is: a retry makes no second
 * document) and the honeypot.
 */
export function formSender(url: string): (payload: object, form: HTMLFormElement) => Promise<SubmitResult> {
  let last: { content: string; key: string } | undefined;
  return async (payload, form) => {
    const content = JSON.stringify(payload);
    if (last?.content !== content) last = { content, key: randomUuid() };
    const honeypot = String(new FormData(form).get(HONEYPOT_FIELD) ?? '');
    const result = await postJson(url, {
      ...payload,
      envoi: last.key,
      ...(honeypot && { [HONEYPOT_FIELD]: honeypot }),
    });
    if (result.ok) last = undefined;
    return result;
  };
}

/** A random UUID v4: crypto.randomUUID() exists only on https or localhost (not `npm start` seen from a phone). */
const randomUuid = (): string =>
  crypto.randomUUID?.() ??
  '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (digit) =>
    (Number(digit) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(digit) / 4)))).toString(16),
  );
