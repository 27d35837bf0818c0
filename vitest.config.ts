/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

/**
 * Four vitest projects, apart from the Playwright specs: unit (pure helpers and schemas), components (islands in
 * jsdom), pipeline (endpoints and the pull against emulators) on Astro's Vite configuration, so that the site reads
 * astro:env as the tests set it (tests/fixtures/site-env.ts); build (dist/ after `npm run build`).
 */
export default getViteConfig({
  test: {
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
          // user-event types character by character: generous on a loaded 2-core machine.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'pipeline',
          include: ['tests/pipeline/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          globalSetup: ['tests/fixtures/site-env.ts'],
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
