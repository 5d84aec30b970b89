// ESLint's flat config: ESLint's and typescript-eslint's recommended rules (the syntactic set,
// not the type-checked one, so that linting stays fast), then eslint-config-prettier, last, which
// turns off every rule that Prettier's formatting decides. Why: docs/decisions/0010-lint-and-format.md.
// A rule that fights a deliberate choice of the code is configured here, once, with the reason;
// never with a comment on a line.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  // The architecture tests' fixtures break the rules on purpose; the rest is built or generated.
  globalIgnores(['dist/', 'node_modules/', 'test/architecture/fixtures/', 'bench/.compiled/', 'bench/results/', 'coverage/', '.tmp/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      // Names and keys refuse C0 and C1 control characters (src/domain/pet.ts, api-key.ts), and
      // tests look for them: a character class of control characters is the point there.
      'no-control-regex': 'off',
      // A parameter, variable or caught error that is unused on purpose is named with a leading
      // `_` (as in `(_req, socket)` or `(_, i)`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The test clients hand a response's JSON body as `any`, so that assertions read its fields
    // directly; the body's shape is checked against docs/openapi.yaml on every response instead
    // (test/support/openapi-contract.ts).
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // CommonJS on purpose: preloaded into a server process with `node --require`.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
