/**
 * The policy follows the content: a copy of the project whose demo dataset frames the schema from an
 * external https host, shows a picture from another one (unreachable here: left out and reported) and embeds a
 * video builds without any code change; its pages allow exactly those frame origins, and pictures only from the site.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtPolicies, type Policy } from '../fixtures/built-site';

const root = join(import.meta.dirname, '../..');
const FRAME = 'https://docs.google.com/presentation/d/e/2PACX-demarches/embed';
const PICTURE = 'https://images.exemple-photos.org/course.jpg';
const VIDEO = 'https://www.youtube-nocookie.com/embed/abc123';
/** Not copied: outputs, caches and the dependencies (linked one by one, so that Astro's caches stay in the copy). */
const SKIPPED = new Set([
  'node_modules',
  'dist',
  '.netlify',
  '.astro',
  '.git',
  '.env',
  'test-results',
  'playwright-report',
]);

let copy: string;
let policies: Map<string, Policy>;
let build: ReturnType<typeof spawnSync>;

/** A copy of the project with its own node_modules folder of links to ours, less Astro's and Vite's caches. */
function copyProject(): string {
  const target = mkdtempSync(join(tmpdir(), 'content-policy-'));
  cpSync(root, target, {
    recursive: true,
    filter: (source) => !SKIPPED.has(relative(root, source).split('/')[0] ?? ''),
  });
  mkdirSync(join(target, 'node_modules'));
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== '.astro' && name !== '.vite')
      symlinkSync(join(root, 'node_modules', name), join(target, 'node_modules', name));
  }
  return target;
}

/** Edits one JSON file of the copy's demo dataset. */
function editDemo(file: string, edit: (documents: Record<string, Record<string, unknown>>) => void): void {
  const path = join(copy, 'content/demo', file);
  const documents = JSON.parse(readFileSync(path, 'utf8'));
  edit(documents);
  writeFileSync(path, JSON.stringify(documents, null, 2));
}

beforeAll(() => {
  copy = copyProject();
  editDemo('menus.json', (menus) => {
    (menus.divers as { schema: { src: string } }).schema.src = FRAME;
  });
  editDemo('articles.json', (articles) => {
    const news = articles['course-solidaire-2026'] as { img: { src: string }; contenu: string };
    news.img.src = PICTURE;
    news.contenu += `<iframe src="${VIDEO}" title="La course en vidéo"></iframe>`;
  });
  const env = { ...process.env, FIREBASE_PROJECT_ID: '', FIRESTORE_EMULATOR_HOST: '' };
  build = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/build.ts'], {
    cwd: copy,
    env,
    encoding: 'utf8',
    timeout: 400_000,
  });
  policies = build.status === 0 ? builtPolicies(copy) : new Map();
}, 420_000);

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('a build whose content uses new hosts', () => {
  it('succeeds', () => {
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);
    const schema = readFileSync(join(copy, 'dist/ecole/schema/index.html'), 'utf8');
    expect(schema).toContain(`<iframe class="schema" src="${FRAME}"`);
    // The picture's host cannot be reached from here: the pull leaves it out, reports it, and goes on.
    expect(readFileSync(join(copy, 'dist/actualites/course-solidaire-2026/index.html'), 'utf8')).not.toContain(PICTURE);
    const report = JSON.parse(readFileSync(join(copy, 'src/data/report.json'), 'utf8'));
    expect(report.pictures.failed).toMatchObject([{ src: PICTURE, id: 'course-solidaire-2026', field: 'img.src' }]);
  });

  it('frames the schema host on /ecole/schema only, and the video host, nothing wider', () => {
    const sorted = (sources: string[] | undefined) => [...(sources ?? [])].sort();
    expect(sorted(policies.get('/ecole/schema')?.['frame-src'])).toEqual([
      "'self'",
      'https://docs.google.com',
      'https://www.youtube-nocookie.com',
    ]);
    for (const path of ['/', '/ecole', '/actualites/course-solidaire-2026', '/asso']) {
      expect(sorted(policies.get(path)?.['frame-src']), path).toEqual(["'self'", 'https://www.youtube-nocookie.com']);
    }
  });

  it('allows pictures from the site only: the build serves every picture itself', () => {
    expect(policies.size).toBeGreaterThan(10);
    for (const [path, policy] of policies) {
      expect(policy['img-src'], path).toEqual(["'self'", 'data:']);
    }
  });
});
