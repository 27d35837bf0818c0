// ESLint flat config: TypeScript, Astro components and React islands, with the jsx-a11y rules for both
// (eslint-plugin-astro's jsx-a11y config for .astro), and the walls between the project's parts (docs/architecture.md).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import astro from 'eslint-plugin-astro';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', '.astro/', '.netlify/', 'node_modules/', 'src/data/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  ...astro.configs['jsx-a11y-strict'],
  {
    // eslint-plugin-astro's jsx-a11y config already registers the plugin: reuse it, add the rules for islands.
    files: ['**/*.tsx'],
    languageOptions: jsxA11y.flatConfigs.strict.languageOptions,
    rules: jsxA11y.flatConfigs.strict.rules,
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The walls, by resolved file path: `from` may not be imported by `target`.
    files: ['**/*.{js,mjs,ts,tsx,astro}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
      'import-x/extensions': ['.js', '.mjs', '.ts', '.tsx', '.astro'],
      // Each imported file with its own parser, whatever the importing file's.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'], 'astro-eslint-parser': ['.astro'] },
      // Only the project's own files are followed (virtual modules such as astro:content are skipped).
      'import-x/ignore': ['node_modules', '^astro:'],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/lib',
              from: './src/features',
              message: 'src/lib is shared plumbing that knows no feature: move the code into the feature.',
            },
            {
              target: './src/features',
              from: './src/content.ts',
              message: 'Pages query the content (src/content.ts) and pass features what they need as props.',
            },
            {
              // The islands and what they render run in the browser (src/lib/hydrate-on-interaction.ts).
              target: [
                './src/features/admissions/PreRegistration*.tsx',
                './src/features/newsletter/NewsletterPopup.tsx',
                './src/features/forms/FormParts.tsx',
                './src/features/donations/checkout/*.tsx',
                './src/features/content/**/*.tsx',
              ],
              from: ['./src/**/*.server.ts', './src/**/*.server.tsx'],
              message: 'Browser code never imports server code (secrets, firebase-admin): pass what it needs as props.',
            },
            {
              target: './src',
              from: './scripts',
              message: 'The site never imports the scripts: move what both need into src/lib or the feature.',
            },
            {
              target: ['./scripts', './bench'],
              from: './tests',
              message: 'Scripts and the bench never import tests: shared tooling lives in scripts/lib.',
            },
          ],
        },
      ],
      // Cycles make the load order matter and keep two modules from being read apart.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
);
