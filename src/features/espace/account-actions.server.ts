/**
 * The form of « Mon compte » (/espace/compte) as an Astro Action (src/actions/index.ts): choosing a password
 * (password.server.ts), which signs the person in again with it. The password is never trimmed, logged nor shown back.
 */
import * as z from 'zod';
import { choosePassword } from './password.server';
import { staffAction, staffText } from './staff-action.server';

export const accountActions = {
  /** Sets `motdepasse` (typed twice: `confirmation`) as the account's password. @throws as choosePassword. */
  password: staffAction(
    'compte',
    z.object({ motdepasse: staffText(undefined, true), confirmation: staffText(undefined, true) }),
    ({ motdepasse, confirmation }, { session, context }) =>
      choosePassword(session, context.cookies, motdepasse, confirmation),
  ),
};
