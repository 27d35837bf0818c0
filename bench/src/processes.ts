/**
 * Child processes of the benchmark (pulls, builds, the local server, Chromium):
 * every one is registered here so that it is ended on success, on failure and
 * on Ctrl-C, and only those — by their own process-group id.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

/** Raised when a measurement cannot be made; its message says what and how to fix it. */
export class BenchError extends Error {
  override name = 'BenchError';
}

const children = new Set<ChildProcess>();
const cleanups = new Set<() => void | Promise<void>>();

/**
 * Ends one child started by {@link spawnTracked}: SIGTERM to its process group, SIGKILL after `graceMs` (default
 * 3 000 ms).
 */
export async function stopChild(child: ChildProcess, graceMs = 3_000): Promise<void> {
  children.delete(child);
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => child.pid !== undefined && signalGroup(child.pid, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Starts a command in its own process group (so that its own children end with
 * it) and registers it for {@link stopEverything}.
 */
export function spawnTracked(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: true });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/**
 * Registers a cleanup (stop an emulator, remove a temporary copy) for {@link stopEverything}; returns its unregister
 * function.
 */
export function onCleanup(cleanup: () => void | Promise<void>): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

let stopping: Promise<void> | undefined;

/**
 * Ends every registered child and runs every registered cleanup. Never throws;
 * concurrent calls (an interrupt during a failure) share one run, so that no
 * caller exits before the cleanups are done.
 */
export function stopEverything(): Promise<void> {
  stopping ??= (async () => {
    await Promise.all([...children].map((child) => stopChild(child)));
    for (const cleanup of [...cleanups].reverse()) {
      cleanups.delete(cleanup);
      try {
        await cleanup();
      } catch (error) {
        console.error(`Cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return stopping;
}

/** One line a command printed. */
export interface OutputLine {
  /** When it arrived, in milliseconds after the spawn. */
  ms: number;
  /** The line, without colour codes. */
  text: string;
}

/** What {@link runTimed} measured. */
export interface TimedRun {
  /** Wall-clock time from spawn to exit, in milliseconds. */
  ms: number;
  /** Every line of stdout and stderr, in order of arrival. */
  lines: OutputLine[];
}

/**
 * Runs a command to its end and times it (wall clock, milliseconds), with the
 * arrival time of each output line.
 * @throws BenchError with the last lines of its output when it exits non-zero.
 */
export async function runTimed(
  label: string,
  command: string,
  args: string[],
  options: SpawnOptions = {},
): Promise<TimedRun> {
  const started = performance.now();
  const child = spawnTracked(command, args, options);
  const lines: OutputLine[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) =>
      lines.push({ ms: performance.now() - started, text: stripVTControlCharacters(line) }),
    );
  }
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolveExit, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, exitSignal) => resolveExit([exitCode, exitSignal]));
  });
  const ms = performance.now() - started;
  if (code !== 0) {
    const tail = lines
      .slice(-25)
      .map((line) => line.text)
      .join('\n    ');
    throw new BenchError(`${label} failed (${signal ?? `exit status ${code}`}). Last lines:\n    ${tail}`);
  }
  return { ms, lines };
}

/**
 * Waits until a child prints a line matching `pattern` on stdout or stderr.
 * @throws BenchError when it exits first or after `timeoutMs` (milliseconds).
 */
export function waitForOutput(child: ChildProcess, pattern: RegExp, label: string, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolveReady, reject) => {
    let output = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      reject(new BenchError(`${label} ${reason}. Its output:\n    ${output.trim().split('\n').join('\n    ')}`));
    };
    const timer = setTimeout(() => fail(`did not start within ${timeoutMs / 1000} s`), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolveReady();
      }
    };
    const onExit = (code: number | null) => fail(`exited (status ${code}) before it was ready`);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * The first port of `[first, last]` that 127.0.0.1 can bind now.
 * @throws BenchError when every port of the range is taken.
 */
export async function freePort(first: number, last: number, taken: ReadonlySet<number> = new Set()): Promise<number> {
  for (let port = first; port <= last; port += 1) {
    if (taken.has(port)) continue;
    const free = await new Promise<boolean>((resolveFree) => {
      const probe = createServer();
      probe.once('error', () => resolveFree(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolveFree(true)));
    });
    if (free) return port;
  }
  throw new BenchError(`No free port between ${first} and ${last} on 127.0.0.1: stop what uses them and try again.`);
}
