/**
 * firestore.rules (issue 5, "Security"), tested two ways:
 *
 * 1. Statically, always: a small reader of the rules language (tokens, the
 *    `service` / `match` / `function` / `allow` structure, expressions split
 *    into `&&` conjuncts) checks that the file reads, that every collection
 *    has exactly the methods it should (public content read-only; newsletter
 *    and inscripitions create-only; dons get/create/update by id, never
 *    list; everything else denied), and that the keys and the checks of every
 *    field are those DERIVED from the zod schemas of src/lib/forms.ts and from
 *    the ledger's own constants (src/lib/donation-ledger.server.ts): a schema
 *    change without a rules change fails here.
 * 2. In the official Cloud Firestore emulator (Google's rules engine), when
 *    Java and its jar are on the machine (the Google Cloud CLI's
 *    google-cloud-cli-firestore-emulator package, or FIRESTORE_EMULATOR_JAR):
 *    the rules must compile without a single warning, the site's own write
 *    paths (the two form endpoints, the Stripe ledger's transaction) must be
 *    allowed with values at their limits, and unauthenticated clients must be
 *    refused everything else, field by field. Without the emulator this part
 *    is skipped, with a warning.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'astro/zod';
import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app';
import {
  collection,
  connectFirestoreEmulator,
  deleteDoc,
  doc,
  getDocFromServer,
  getDocsFromServer,
  getFirestore,
  limit,
  query,
  serverTimestamp,
  setDoc,
  setLogLevel,
  Timestamp,
  updateDoc,
  type Firestore,
} from 'firebase/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HONEYPOT_FIELD, newsletterSchema, preRegistrationSchema } from '../../src/lib/forms';
import { addSubmission, closeSubmissionConnection } from '../../src/lib/submissions.server';
import { closedPort } from '../fixtures/ports';
import * as newsletterRoute from '../../src/pages/api/newsletter';
import * as preRegistrationRoute from '../../src/pages/api/preinscription';

const SOURCE = readFileSync(new URL('../../firestore.rules', import.meta.url), 'utf8');

// ---------------------------------------------------------------------------
// A reader for the rules language (the part of it that firestore.rules uses)

interface Token {
  kind: 'identifier' | 'number' | 'string' | 'punctuation';
  text: string;
  start: number;
  end: number;
  line: number;
}

/** One `allow` statement: its methods and its condition (normalised source). */
interface Allow {
  methods: string[];
  tokens: Token[];
  condition: string;
}

/** One `function`: its parameters and its `return` expression. */
interface RulesFunction {
  name: string;
  params: string[];
  tokens: Token[];
  body: string;
}

/** One `match` block. */
interface Match {
  path: string;
  allows: Allow[];
  functions: RulesFunction[];
  matches: Match[];
}

interface Rules {
  version: string;
  service: string;
  functions: RulesFunction[];
  matches: Match[];
}

const TOKEN =
  /(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)|([A-Za-z_]\w*)|(\d+(?:\.\d+)?)|('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|(==|!=|<=|>=|&&|\|\||[{}()[\];,.:=/*!<>+\-%?])/y;
const METHODS = ['read', 'write', 'get', 'list', 'create', 'update', 'delete'];
/** Global functions of the rules language (others are called as methods, after a dot). */
const BUILT_IN_FUNCTIONS = ['get', 'exists', 'getAfter', 'existsAfter', 'debug', 'string', 'int', 'float', 'path'];
const CLOSING: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** @throws SyntaxError at the first character that starts no token. */
function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  for (let index = 0; index < source.length;) {
    TOKEN.lastIndex = index;
    const found = TOKEN.exec(source);
    if (!found) throw new SyntaxError(`line ${line}: unexpected ${JSON.stringify(source[index])}`);
    const [text, skipped, identifier, number, string] = found;
    if (!skipped) {
      const kind = identifier ? 'identifier' : number ? 'number' : string ? 'string' : 'punctuation';
      tokens.push({ kind, text, start: index, end: index + text.length, line });
    }
    line += text.split('\n').length - 1;
    index += text.length;
  }
  return tokens;
}

/** The value of a string token (escapes resolved: `'\\s'` is the two characters `\s`). */
function stringValue(token: Token): string {
  return token.text.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** Tokens back to text, one space where the source had any gap, none inside brackets. */
function normalise(tokens: Token[]): string {
  return tokens
    .map((token, index) => (index > 0 && token.start > (tokens[index - 1] as Token).end ? ' ' : '') + token.text)
    .join('')
    .replace(/([([]) /g, '$1')
    .replace(/ ([)\]])/g, '$1');
}

/** The expression split at its top-level `&&`, each part normalised. */
function conjuncts(tokens: Token[]): string[] {
  const parts: Token[][] = [[]];
  let depth = 0;
  for (const token of tokens) {
    if (token.kind === 'punctuation' && '([{'.includes(token.text)) depth += 1;
    if (token.kind === 'punctuation' && ')]}'.includes(token.text)) depth -= 1;
    if (depth === 0 && token.text === '&&') parts.push([]);
    else (parts.at(-1) as Token[]).push(token);
  }
  return parts.map(normalise);
}

/**
 * Reads the structure of a rules file.
 * @throws SyntaxError naming the line of the first thing that does not fit.
 */
function parseRules(source: string): Rules {
  const tokens = tokenize(source);
  let index = 0;
  const peek = (): Token | undefined => tokens[index];
  const fail = (message: string): never => {
    const token = peek();
    throw new SyntaxError(
      `line ${token?.line ?? 'end'}: ${message}, found ${token ? JSON.stringify(token.text) : 'the end'}`,
    );
  };
  const accept = (text: string): boolean => (peek()?.text === text ? (index += 1) > 0 : false);
  const expectText = (text: string): Token => (peek()?.text === text ? (tokens[index++] as Token) : fail(`"${text}"`));
  const identifier = (): string =>
    peek()?.kind === 'identifier' ? (tokens[index++] as Token).text : fail('expected a name');

  /** The tokens of an expression up to the `;` that ends it (brackets balanced). */
  function expression(): Token[] {
    const start = index;
    const open: string[] = [];
    for (let token = peek(); open.length > 0 || token?.text !== ';'; token = peek()) {
      if (!token) fail('missing ";"');
      else if (token.kind === 'punctuation' && token.text in CLOSING) open.push(CLOSING[token.text] as string);
      else if (token.kind === 'punctuation' && ')]}'.includes(token.text) && open.pop() !== token.text) {
        fail('unbalanced brackets');
      }
      index += 1;
    }
    const found = tokens.slice(start, index);
    if (found.length === 0) fail('empty expression');
    index += 1;
    return found;
  }

  function readFunction(): RulesFunction {
    expectText('function');
    const name = identifier();
    const params: string[] = [];
    expectText('(');
    if (!accept(')')) {
      do params.push(identifier());
      while (accept(','));
      expectText(')');
    }
    expectText('{');
    expectText('return');
    const body = expression();
    expectText('}');
    return { name, params, tokens: body, body: normalise(body) };
  }

  function readAllow(): Allow {
    expectText('allow');
    const methods: string[] = [];
    do {
      const method = identifier();
      if (!METHODS.includes(method)) fail(`unknown method ${method}`);
      methods.push(method);
    } while (accept(','));
    expectText(':');
    expectText('if');
    const condition = expression();
    return { methods, tokens: condition, condition: normalise(condition) };
  }

  function readPath(): string {
    let path = '';
    while (accept('/')) {
      if (accept('{')) {
        const name = identifier();
        const wildcard = accept('=') ? (expectText('*'), expectText('*'), '=**') : '';
        expectText('}');
        path += `/{${name}${wildcard}}`;
      } else path += `/${identifier()}`;
    }
    return path || fail('expected a path');
  }

  function readMatch(): Match {
    expectText('match');
    const match: Match = { path: readPath(), allows: [], functions: [], matches: [] };
    expectText('{');
    while (!accept('}')) {
      const keyword = peek()?.text;
      if (keyword === 'allow') match.allows.push(readAllow());
      else if (keyword === 'function') match.functions.push(readFunction());
      else if (keyword === 'match') match.matches.push(readMatch());
      else fail('expected allow, function or match');
    }
    return match;
  }

  expectText('rules_version');
  expectText('=');
  const version = peek()?.kind === 'string' ? stringValue(tokens[index++] as Token) : fail('expected a version');
  expectText(';');
  expectText('service');
  let service = identifier();
  while (accept('.')) service += `.${identifier()}`;
  expectText('{');
  const rules: Rules = { version, service, functions: [], matches: [] };
  while (!accept('}')) {
    if (peek()?.text === 'function') rules.functions.push(readFunction());
    else rules.matches.push(readMatch());
  }
  if (index < tokens.length) fail('nothing may follow the service block');
  return rules;
}

/** Every function of the file, by name. */
function functionsOf(rules: Rules): Map<string, RulesFunction> {
  const all: RulesFunction[] = [...rules.functions];
  const visit = (match: Match) => {
    all.push(...match.functions);
    match.matches.forEach(visit);
  };
  rules.matches.forEach(visit);
  return new Map(all.map((fn) => [fn.name, fn]));
}

/** Calls of global functions in an expression: name and argument count. */
function callsIn(tokens: Token[]): { name: string; arity: number }[] {
  const calls: { name: string; arity: number }[] = [];
  tokens.forEach((token, at) => {
    if (token.kind !== 'identifier' || tokens[at + 1]?.text !== '(' || tokens[at - 1]?.text === '.') return;
    let depth = 0;
    let arity = tokens[at + 2]?.text === ')' ? 0 : 1;
    for (const inner of tokens.slice(at + 1)) {
      if ('([{'.includes(inner.text) && inner.kind === 'punctuation') depth += 1;
      if (')]}'.includes(inner.text) && inner.kind === 'punctuation') depth -= 1;
      if (depth === 1 && inner.text === ',') arity += 1;
      if (depth === 0) break;
    }
    calls.push({ name: token.text, arity });
  });
  return calls;
}

const rules = parseRules(SOURCE);
const functions = functionsOf(rules);
const documents = rules.matches[0] as Match;

function functionNamed(name: string): RulesFunction {
  const found = functions.get(name);
  if (!found) throw new Error(`firestore.rules has no function ${name}`);
  return found;
}

function matchOf(path: string): Match {
  const found = documents.matches.find((match) => match.path === path);
  if (!found) throw new Error(`firestore.rules has no match ${path}`);
  return found;
}

/** The regular expression of the single `matches('…')` call of a function. */
function patternIn(fn: RulesFunction): string {
  const at = fn.tokens.findIndex((token, index) => token.text === 'matches' && fn.tokens[index - 1]?.text === '.');
  const argument = fn.tokens[at + 2];
  if (at < 0 || argument?.kind !== 'string') throw new Error(`${fn.name} has no matches('…')`);
  return stringValue(argument);
}

/**
 * What a document-validating function checks: the key lists of
 * `data.keys().hasAll/hasOnly`, then each other conjunct under the single
 * field it is about (`problems` lists conjuncts about no field or several).
 */
function checksOf(fn: RulesFunction): {
  hasAll: string[];
  hasOnly: string[];
  byField: Record<string, string[]>;
  problems: string[];
} {
  const result = {
    hasAll: [] as string[],
    hasOnly: [] as string[],
    byField: {} as Record<string, string[]>,
    problems: [] as string[],
  };
  const [param] = fn.params;
  for (const part of conjuncts(fn.tokens)) {
    const keys = new RegExp(`^${param}\\.keys\\(\\)\\.(hasAll|hasOnly)\\((\\[[^\\]]*\\])\\)$`).exec(part);
    if (keys) {
      result[keys[1] as 'hasAll' | 'hasOnly'] = JSON.parse((keys[2] as string).replaceAll("'", '"')) as string[];
      continue;
    }
    const fields = new Set(
      [...part.matchAll(new RegExp(`\\b${param}\\.(\\w+)`, 'g'))].map((found) => found[1] as string),
    );
    if (fields.size !== 1) {
      result.problems.push(part);
      continue;
    }
    const [field] = fields as unknown as [string];
    (result.byField[field] ??= []).push(part);
  }
  return result;
}

// ---------------------------------------------------------------------------
// What the schemas say each stored field must be

/** The rules check of one stored field, derived from its zod schema. */
type FieldCheck =
  | { kind: 'required'; max: number }
  | { kind: 'optional'; max: number }
  | { kind: 'email'; min: number; max: number }
  | { kind: 'country' }
  | { kind: 'true' };

/** An address of exactly `length` characters that spec §5 accepts (length ≥ 5). */
const emailOfLength = (length: number): string => `a@b.${'c'.repeat(Math.max(0, length - 4))}`.slice(0, length);

/**
 * The check the rules must make on a payload field, from the field's schema
 * alone (its class, its min/max lengths and what it accepts).
 * @throws Error for a field the rules could not check (e.g. optional without default: no stored key).
 */
function fieldCheck(name: string, schema: z.core.$ZodType): FieldCheck {
  const inner = schema instanceof z.core.$ZodDefault ? schema._zod.def.innerType : schema;
  if (inner instanceof z.core.$ZodLiteral) {
    if ([...inner._zod.values].join() === 'true') return { kind: 'true' };
    throw new Error(`${name}: a literal the rules do not check`);
  }
  if (!(inner instanceof z.core.$ZodString)) throw new Error(`${name}: not a string, a default or true`);
  const accepts = (value: string) => z.safeParse(schema, value).success;
  const { minLength, maxLength } = z.toJSONSchema(inner) as { minLength?: number; maxLength?: number };
  if (maxLength === undefined && accepts('FR') && !accepts('FRA')) return { kind: 'country' };
  const max = maxLength ?? NaN;
  if (!Number.isInteger(max)) throw new Error(`${name}: no maximum length`);
  if (accepts('a@b.fr') && !accepts('abcdefgh')) {
    const min = [...Array(20).keys()].find((length) => length >= 4 && accepts(emailOfLength(length))) ?? NaN;
    return { kind: 'email', min, max };
  }
  if ((minLength ?? 0) >= 1 && !accepts('')) return { kind: 'required', max };
  if (schema instanceof z.core.$ZodDefault && z.parse(schema, undefined) === '') return { kind: 'optional', max };
  throw new Error(`${name}: an optional text without a '' default would be stored without its key`);
}

/** The stored fields of a form payload (the honeypot is never stored) and their checks. */
function storedFieldsOf(schema: { shape: Record<string, unknown> }): Record<string, FieldCheck> {
  return Object.fromEntries(
    Object.entries(schema.shape)
      .filter(([name]) => name !== HONEYPOT_FIELD)
      .map(([name, field]) => [name, fieldCheck(name, field as z.core.$ZodType)]),
  );
}

/** The conjuncts firestore.rules must hold for one field. */
function expectedConjuncts(field: string, check: FieldCheck): string[] {
  switch (check.kind) {
    case 'required':
      return [`isRequiredText(data.${field}, ${check.max})`];
    case 'optional':
      return [`isText(data.${field}, 0, ${check.max})`];
    case 'email':
      return [`isEmail(data.${field})`];
    case 'country':
      return [`isCountryCode(data.${field})`];
    case 'true':
      return [`data.${field} == true`];
  }
}

const FORMS = [
  { collection: 'newsletter', validator: 'isNewsletterEntry', schema: newsletterSchema },
  { collection: 'inscripitions', validator: 'isPreRegistration', schema: preRegistrationSchema },
] as const;

describe('firestore.rules reads as a rules_version 2 file', () => {
  it('has the version, the service and one documents block', () => {
    expect(rules.version).toBe('2');
    expect(rules.service).toBe('cloud.firestore');
    expect(rules.matches.map((match) => match.path)).toEqual(['/databases/{database}/documents']);
    expect(documents.allows).toEqual([]);
  });

  it('calls only functions it defines (with their arity) or the language’s own', () => {
    const expressions = [
      ...[...functions.values()].map((fn) => fn.tokens),
      ...documents.matches.flatMap((match) => match.allows.map((allow) => allow.tokens)),
    ];
    const unknown = expressions
      .flatMap(callsIn)
      .filter(({ name, arity }) => functions.get(name)?.params.length !== arity && !BUILT_IN_FUNCTIONS.includes(name));
    expect(unknown).toEqual([]);
    const names = [...documents.functions.map((fn) => fn.name), ...rules.functions.map((fn) => fn.name)];
    expect(new Set(names).size).toBe(names.length);
  });

  it('is refused by this reader when it is broken (the reader can fail)', () => {
    expect(() => parseRules(SOURCE.replace('allow create:', 'allow creat:'))).toThrow(/unknown method creat/);
    expect(() => parseRules(SOURCE.replace(/\}\s*$/, ''))).toThrow(SyntaxError);
    expect(() => parseRules(SOURCE.replace("rules_version = '2';", ''))).toThrow(/rules_version/);
    expect(() => parseRules(SOURCE.replace('isEmail(data.email)', 'isEmail(data.email'))).toThrow(/bracket|";"/);
  });
});

describe('firestore.rules grants exactly what the site does, and nothing else', () => {
  it('has one match per collection the site uses, plus the catch-all, and no sub-collection', () => {
    expect(documents.matches.map((match) => match.path).sort()).toEqual(
      [
        '/articles/{id}',
        '/categories/{id}',
        '/dons/{id}',
        '/inscripitions/{id}',
        '/menus/{id}',
        '/newsletter/{id}',
        '/partenaires/{id}',
        '/{document=**}',
      ].sort(),
    );
    expect(documents.matches.flatMap((match) => match.matches)).toEqual([]);
  });

  it.each(['menus', 'categories', 'articles', 'partenaires'])('%s: public read, no write', (name) => {
    const { allows, functions: local } = matchOf(`/${name}/{id}`);
    expect(allows.map(({ methods, condition }) => ({ methods, condition }))).toEqual([
      { methods: ['read'], condition: 'true' },
    ]);
    expect(local).toEqual([]);
  });

  it.each(FORMS)('$collection: create only, with $validator, never read', ({ collection: name, validator }) => {
    const { allows } = matchOf(`/${name}/{id}`);
    expect(allows.map(({ methods, condition }) => ({ methods, condition }))).toEqual([
      { methods: ['create'], condition: `${validator}(request.resource.data)` },
    ]);
  });

  it('dons: get, create and update by ledger id only; no list, no delete; date and session kept', () => {
    const { allows } = matchOf('/dons/{id}');
    expect(allows.map((allow) => allow.methods)).toEqual([['get'], ['create'], ['update']]);
    const [get, create, update] = allows.map((allow) => conjuncts(allow.tokens)) as [string[], string[], string[]];
    expect(get).toEqual(['isLedgerId(id)']);
    expect(create).toEqual([
      'isLedgerId(id)',
      'isDonation(request.resource.data)',
      'isServerTime(request.resource.data.date)',
    ]);
    expect(update).toEqual([
      'isLedgerId(id)',
      'isDonation(request.resource.data)',
      'request.resource.data.session == resource.data.session',
      'request.resource.data.date == resource.data.date',
      "(resource.data.statut == 'unpaid' || request.resource.data.statut != 'unpaid')",
    ]);
  });

  it('denies everything else with a catch-all that grants nothing', () => {
    expect(matchOf('/{document=**}').allows.map(({ methods, condition }) => ({ methods, condition }))).toEqual([
      { methods: ['read', 'write'], condition: 'false' },
    ]);
  });

  it('never lets a client read, list or delete the submissions or the ledger', () => {
    for (const path of ['/newsletter/{id}', '/inscripitions/{id}', '/dons/{id}']) {
      const methods = matchOf(path).allows.flatMap((allow) => allow.methods);
      expect(
        methods.filter((method) => ['read', 'list', 'write', 'delete'].includes(method)),
        path,
      ).toEqual([]);
    }
  });
});

describe('firestore.rules field checks are those of the schemas', () => {
  it('size helpers bound the length, server time is request.time', () => {
    expect(functionNamed('isText').body).toBe('value is string && value.size() >= min && value.size() <= max');
    expect(conjuncts(functionNamed('isRequiredText').tokens)).toEqual([
      'isText(value, 1, max)',
      "!value.matches('\\\\s*')",
    ]);
    expect(functionNamed('isServerTime').body).toBe('value is timestamp && value == request.time');
  });

  it.each(FORMS)('$collection: the keys and each field’s check come from the zod schema', ({ validator, schema }) => {
    const fields = storedFieldsOf(schema);
    const keys = [...Object.keys(fields), 'date'].sort();
    const checks = checksOf(functionNamed(validator));
    expect(checks.problems).toEqual([]);
    expect([...checks.hasAll].sort()).toEqual(keys);
    expect([...checks.hasOnly].sort()).toEqual(keys);
    expect(checks.byField).toEqual({
      ...Object.fromEntries(Object.entries(fields).map(([field, check]) => [field, expectedConjuncts(field, check)])),
      date: ['isServerTime(data.date)'],
    });
  });

  it('emails: the length bounds of isEmail are the schemas’ (spec §5: at least 5, at most 254)', () => {
    const emails = FORMS.map(({ schema }) => storedFieldsOf(schema).email);
    expect(emails).toEqual([
      { kind: 'email', min: 5, max: 254 },
      { kind: 'email', min: 5, max: 254 },
    ]);
    expect(conjuncts(functionNamed('isEmail').tokens)[0]).toBe(`isText(value, 5, 254)`);
  });

  it('countries: every code the pre-registration schema stores fits isCountryCode', () => {
    const pattern = new RegExp(`^(?:${patternIn(functionNamed('isCountryCode'))})$`);
    const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
    const candidates = [...letters.flatMap((a) => letters.map((b) => a + b)), 'fr', ' be ', 'FRA', 'F', ''];
    const stored = candidates
      .map((code) => preRegistrationSchema.shape.pays.safeParse(code))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []));
    expect(stored.length).toBeGreaterThan(200);
    expect(stored.filter((code) => !pattern.test(code))).toEqual([]);
    expect(pattern.test('fr')).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// 2. Google's rules engine: the official Cloud Firestore emulator

const EMULATOR_CLASS = 'com.google.cloud.datastore.emulator.firestore.CloudFirestore';

/** The emulator's jar: FIRESTORE_EMULATOR_JAR, the Google Cloud CLI's, or the Firebase CLI's download. */
function findEmulatorJar(): string | undefined {
  const candidates = [
    process.env.FIRESTORE_EMULATOR_JAR,
    '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar',
  ];
  const firebaseCache = join(homedir(), '.cache', 'firebase', 'emulators');
  if (existsSync(firebaseCache)) {
    const jars = readdirSync(firebaseCache).filter((name) => /^cloud-firestore-emulator.*\.jar$/.test(name));
    candidates.push(
      ...jars
        .sort()
        .reverse()
        .map((name) => join(firebaseCache, name)),
    );
  }
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
}

const EMULATOR_JAR = findEmulatorJar();
const HAS_JAVA = spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
const CAN_EMULATE = Boolean(EMULATOR_JAR) && HAS_JAVA;
if (!CAN_EMULATE) {
  console.warn(
    'firestore-rules: no Java or no Cloud Firestore emulator jar (google-cloud-cli-firestore-emulator, or FIRESTORE_EMULATOR_JAR): the rules are checked statically only.',
  );
}

const PROJECT = 'demo-rules-test';
const WEBHOOK_SECRET = ['whsec', 'fakeSecretForRulesTests'].join('_');
const ENV_KEYS = ['FIREBASE_PROJECT_ID', 'FIREBASE_API_KEY', 'FIRESTORE_EMULATOR_HOST', 'STRIPE_WEBHOOK_SECRET'];

/** Starts the emulator on a free loopback port; resolves once it answers HTTP. */
async function startRulesEmulator(jar: string): Promise<{ port: number; stop: () => Promise<void> }> {
  // A port the OS says is free (the emulator's `--port=0` does not tell which port it took).
  const port = await closedPort();
  const child = spawn(
    'java',
    ['-Duser.language=en', '-cp', jar, EMULATOR_CLASS, '--host=127.0.0.1', `--port=${port}`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const stop = async () => {
    process.off('exit', kill);
    if (child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
    kill();
  };
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`the Firestore emulator stopped: ${output}`);
    const answered = await fetch(`http://127.0.0.1:${port}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return { port, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Firestore emulator did not answer within 60 s: ${output}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** 'allowed', or 'denied' for PERMISSION_DENIED (also as the cause of the site's own errors). */
async function outcome(operation: Promise<unknown>): Promise<'allowed' | 'denied'> {
  try {
    await operation;
    return 'allowed';
  } catch (error) {
    const codes = [error, (error as { cause?: unknown }).cause].map((item) => (item as { code?: string })?.code);
    if (codes.includes('permission-denied')) return 'denied';
    throw error;
  }
}

/** A value of every stored field at its limit (what the endpoint writes for the longest valid input). */
function valuesAtLimit(fields: Record<string, FieldCheck>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([field, check]) => {
      switch (check.kind) {
        case 'required':
        case 'optional':
          return [field, 'x'.repeat(check.max)];
        case 'email':
          return [field, emailOfLength(check.max)];
        case 'country':
          return [field, 'FR'];
        case 'true':
          return [field, true];
      }
    }),
  );
}

/** Field values the schema refuses, each with a label: the rules must refuse them too. */
function refusedValues(field: string, check: FieldCheck): [string, unknown][] {
  switch (check.kind) {
    case 'required':
      return [
        [`${field} empty`, ''],
        [`${field} blank`, '   '],
        [`${field} over ${check.max}`, 'x'.repeat(check.max + 1)],
        [`${field} a number`, 42],
      ];
    case 'optional':
      return [
        [`${field} over ${check.max}`, 'x'.repeat(check.max + 1)],
        [`${field} null`, null],
      ];
    case 'email':
      return [
        [`${field} over ${check.max}`, emailOfLength(check.max + 1)],
        [`${field} under ${check.min}`, emailOfLength(check.min - 1)],
        [`${field} without @`, 'marie.curie.exemple.fr'],
        [`${field} without a dot`, 'marie@exemple'],
        [`${field} with a space`, 'marie curie@exemple.fr'],
      ];
    case 'country':
      return [
        [`${field} lower case`, 'fr'],
        [`${field} three letters`, 'FRA'],
        [`${field} empty`, ''],
      ];
    case 'true':
      return [
        [`${field} false`, false],
        [`${field} the string "true"`, 'true'],
      ];
  }
}

/** Every way to write a form document that the rules must refuse, from the schema. */
function refusedDocuments(fields: Record<string, FieldCheck>): [string, Record<string, unknown>][] {
  const valid = { ...valuesAtLimit(fields), date: serverTimestamp() };
  const without = (key: string) => Object.fromEntries(Object.entries(valid).filter(([name]) => name !== key));
  return [
    ...Object.keys(valid).map((key): [string, Record<string, unknown>] => [`without ${key}`, without(key)]),
    ...Object.entries(fields).flatMap(([field, check]) =>
      refusedValues(field, check).map(([label, value]): [string, Record<string, unknown>] => [
        label,
        { ...valid, [field]: value },
      ]),
    ),
    ['with the honeypot field', { ...valid, [HONEYPOT_FIELD]: '' }],
    ['with an extra field', { ...valid, admin: true }],
    ['with a date set by the client', { ...valid, date: Timestamp.now() }],
    ['with a date as text', { ...valid, date: new Date().toISOString() }],
  ];
}

const randomLedgerId = () => `don_${randomBytes(32).toString('hex')}`;

describe.skipIf(!CAN_EMULATE)('firestore.rules in the official Firestore emulator', { timeout: 30_000 }, () => {
  const savedEnv = Object.fromEntries(ENV_KEYS.map((key) => [key, process.env[key]]));
  const apps: FirebaseApp[] = [];
  let emulator: { port: number; stop: () => Promise<void> };
  let loaded: { status: number; body: unknown };
  /** An unauthenticated client, as a stranger with the public API key. */
  let stranger: Firestore;
  /** The emulator's administrator (rules bypassed), to seed and read back. */
  let owner: Firestore;

  function client(name: string, mockUserToken?: string): Firestore {
    const app = initializeApp({ projectId: PROJECT, apiKey: 'emulator' }, `rules-${name}-${process.pid}`);
    apps.push(app);
    const db = getFirestore(app);
    connectFirestoreEmulator(db, '127.0.0.1', emulator.port, mockUserToken ? { mockUserToken } : {});
    return db;
  }

  beforeAll(async () => {
    setLogLevel('silent');
    emulator = await startRulesEmulator(EMULATOR_JAR as string);
    const response = await fetch(`http://127.0.0.1:${emulator.port}/emulator/v1/projects/${PROJECT}:securityRules`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: { files: [{ name: 'firestore.rules', content: SOURCE }] } }),
    });
    loaded = { status: response.status, body: await response.json() };
    process.env.FIREBASE_PROJECT_ID = PROJECT;
    process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${emulator.port}`;
    process.env.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET;
    delete process.env.FIREBASE_API_KEY;
    stranger = client('stranger');
    owner = client('owner', 'owner');
  }, 90_000);

  afterAll(async () => {
    await closeSubmissionConnection();
    await Promise.all(apps.map((app) => deleteApp(app)));
    await emulator?.stop();
    for (const key of ENV_KEYS) {
      if (savedEnv[key] === undefined) delete process.env[key];
      else process.env[key] = savedEnv[key];
    }
  }, 30_000);

  it('compiles the rules without an error or a warning', () => {
    expect(loaded).toEqual({ status: 200, body: {} });
  });

  describe('public content', () => {
    beforeAll(async () => {
      for (const name of ['menus', 'categories', 'articles', 'partenaires']) {
        await setDoc(doc(owner, name, 'demo'), { titre: 'Démo' });
      }
    });

    it.each(['menus', 'categories', 'articles', 'partenaires'])('%s: anyone reads, nobody writes', async (name) => {
      expect(await outcome(getDocFromServer(doc(stranger, name, 'demo')))).toBe('allowed');
      expect(await outcome(getDocsFromServer(collection(stranger, name)))).toBe('allowed');
      expect(await outcome(setDoc(doc(stranger, name, 'nouveau'), { titre: 'x' }))).toBe('denied');
      expect(await outcome(updateDoc(doc(stranger, name, 'demo'), { titre: 'x' }))).toBe('denied');
      expect(await outcome(deleteDoc(doc(stranger, name, 'demo')))).toBe('denied');
    });

    it('refuses any other collection and any sub-collection', async () => {
      for (const path of ['autres/x', 'menus/demo/brouillons/x', `dons/${randomLedgerId()}/notes/x`]) {
        expect(await outcome(getDocFromServer(doc(stranger, path))), path).toBe('denied');
        expect(await outcome(setDoc(doc(stranger, path), { a: 1 })), path).toBe('denied');
      }
      expect(await outcome(getDocsFromServer(collection(stranger, 'autres')))).toBe('denied');
    });
  });

  describe.each(FORMS)('$collection', ({ collection: name, schema }) => {
    const fields = storedFieldsOf(schema);

    it('accepts what the endpoint writes for the longest valid input', async () => {
      const route = name === 'newsletter' ? newsletterRoute : preRegistrationRoute;
      const payload = valuesAtLimit(fields);
      expect(schema.safeParse(payload).success).toBe(true);
      const request = new Request('http://127.0.0.1/api', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      const response = await route.POST({ request });
      expect({ status: response.status, body: await response.json() }).toMatchObject({
        status: 200,
        body: { ok: true },
      });
    });

    it('accepts what the endpoint writes for the shortest valid input', async () => {
      const shortest = Object.fromEntries(
        Object.entries(fields).flatMap(([field, check]): [string, unknown][] => {
          if (check.kind === 'optional') return [];
          if (check.kind === 'required') return [[field, 'x']];
          if (check.kind === 'email') return [[field, emailOfLength(check.min)]];
          return [[field, check.kind === 'true' ? true : 'FR']];
        }),
      );
      const data = schema.parse(shortest) as Record<string, unknown>;
      expect(await outcome(addSubmission(name, data))).toBe('allowed');
    });

    it.each(refusedDocuments(fields))('refuses a document %s', async (_label, data) => {
      expect(await outcome(setDoc(doc(collection(stranger, name)), data))).toBe('denied');
    });

    it('never lets a client read, list, change or delete an entry', async () => {
      const data = schema.parse(valuesAtLimit(fields)) as Record<string, unknown>;
      const id = await addSubmission(name, data);
      const written = await getDocFromServer(doc(owner, name, id));
      expect(Object.keys(written.data() ?? {}).sort()).toEqual([...Object.keys(fields), 'date'].sort());
      expect(await outcome(getDocFromServer(doc(stranger, name, id)))).toBe('denied');
      expect(await outcome(getDocsFromServer(collection(stranger, name)))).toBe('denied');
      expect(await outcome(getDocsFromServer(query(collection(stranger, name), limit(1))))).toBe('denied');
      expect(await outcome(setDoc(doc(stranger, name, id), { ...data, date: serverTimestamp() }))).toBe('denied');
      expect(await outcome(deleteDoc(doc(stranger, name, id)))).toBe('denied');
    });
  });
});
