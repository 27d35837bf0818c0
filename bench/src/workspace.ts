/**
 * Temporary copies of the project, so that the benchmark's pulls and builds
 * (which write src/data/, dist/, .netlify/, .astro/) never touch the working
 * tree: the working tree's files that git does not ignore (tracked ones and new
 * ones, as they are now, so that work in progress is measured), plus a
 * node_modules/ of links to the project's packages (without its caches, so
 * that every build starts cold and writes its caches in the copy).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { onCleanup } from './processes.ts';

/** node_modules entries that are caches written by builds, not packages. */
const CACHE_ENTRIES = new Set(['.astro', '.vite', '.vite-temp', '.vitest-cache', '.cache']);

/** A temporary copy of the project. */
export interface Workspace {
  /** Absolute path of the copy (under the OS temporary directory). */
  dir: string;
  /** Deletes the copy (idempotent). */
  remove(): Promise<void>;
}

/** Files of `root` that git tracks or would not ignore (paths relative to it). */
async function projectFiles(root: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return stdout.split('\0').filter(Boolean);
}

/**
 * Copies the files of `root` that git does not ignore (tracked files deleted in
 * the working tree are skipped) to a new directory `/tmp/petitspas-bench-<label>-XXXX`, links every
 * package of `root/node_modules`, and registers the copy for removal on exit.
 */
export async function createWorkspace(root: string, label: string): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), `petitspas-bench-${label}-`));
  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    unregister();
    await rm(dir, { recursive: true, force: true });
  };
  const unregister = onCleanup(remove);
  for (const file of await projectFiles(root)) {
    const source = resolve(root, file);
    if (!existsSync(source)) continue;
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await cp(source, join(dir, file), { preserveTimestamps: true, verbatimSymlinks: true });
  }
  await mkdir(join(dir, 'node_modules'));
  for (const entry of await readdir(join(root, 'node_modules'))) {
    if (!CACHE_ENTRIES.has(entry)) await symlink(join(root, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  return { dir, remove };
}
