// Lint: ESLint's and typescript-eslint's recommended rules over every source, test and bench file.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      '.tools/',
      '.data/',
      '.tmp/',
      '.scratch*',
      'bench/results/',
      'charts/',
      'crds/',
      'coverage/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // a function of more parameters takes an object of them (or its pass, its context): positional arguments that
    // many are read wrong at the call
    files: ['src/**/*.ts'],
    rules: { '@typescript-eslint/max-params': ['error', { max: 6 }] },
  },
  {
    files: ['**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
