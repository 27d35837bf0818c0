/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';
import { astroEnvPerProcess } from './tests/fixtures/astro-env-per-process.ts';

/**
 * Four vitest projects, apart from the Playwright specs (docs/testing.md): unit (pure helpers and schemas) and
 * components (islands in jsdom), `npm run test:fast`, no Java and no browser; pipeline (endpoints, the pull, mails,
 * rules against emulators); build (dist/ after `npm run build`). On Astro's Vite configuration, so that the site reads
 * astro:env as the tests set it (tests/fixtures/site-env.ts, then per pipeline file tests/fixtures/env-per-file.ts).
 */
export default getViteConfig({
  plugins: [astroEnvPerProcess()],
  test: {
    // Vitest's default on a 2-core machine is one worker, so files ran one after the other: the pipeline's files mostly
    // wait on emulators, fakes and subprocesses, and the build's on their own builds, so several at once keep both
    // cores busy (unit, components and pipeline on a quiet 2-core machine: 88 s with four, 77–79 s with six, 74 s with
    // eight; six leaves a busy machine some room).
    maxWorkers: 6,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          globalSetup: ['tests/fixtures/site-env.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'components',
          include: ['tests/components/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/components/setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'pipeline',
          include: ['tests/pipeline/**/*.test.ts'],
          environment: 'node',
          // Room for subprocesses (tsx scripts, Java) on a busy 2-core machine running files in parallel.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Files run in parallel: each has its own ports and Firestore project (env-per-file.ts), and those needing
          // Google's emulator share one for the run (google-emulator-setup.ts).
          globalSetup: ['tests/fixtures/site-env.ts', 'tests/fixtures/google-emulator-setup.ts'],
          setupFiles: ['tests/fixtures/env-per-file.ts'],
        },
      },
      {
        test: {
          name: 'build',
          include: ['tests/build/**/*.test.ts'],
          environment: 'node',
          // Every page through JSDOM: room for a loaded 2-core machine.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
