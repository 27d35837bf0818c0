// ESLint flat config: TypeScript, Astro components and React islands, with
// the jsx-a11y rules for both (eslint-plugin-astro's jsx-a11y config for .astro).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import astro from 'eslint-plugin-astro';
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
);
