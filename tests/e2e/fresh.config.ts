// Throwaway: the main config on another port with a fresh server (a stale server holds 4322).
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';

const root = fileURLToPath(new URL('../..', import.meta.url));
export default defineConfig({
  ...base,
  testDir: '.',
  outputDir: `${root}/test-results`,
  use: { ...base.use, baseURL: 'http://127.0.0.1:4399' },
  webServer: {
    command: 'npx tsx scripts/serve-dist.ts 4399',
    cwd: root,
    url: 'http://127.0.0.1:4399/',
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
