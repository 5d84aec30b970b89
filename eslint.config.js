// ESLint's flat config: ESLint's recommended rules and typescript-eslint's type-checked set
// (recommendedTypeChecked: floating and misused promises, awaits of what is not a promise, async
// functions with nothing to await, `any` spreading unchecked...), each TypeScript file typed by
// the project of its nearest tsconfig.json; then eslint-config-prettier, last, which turns off
// every rule that Prettier's formatting decides. Why: docs/decisions/0010-lint-and-format.md.
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
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node },
      // Each file is checked in the TypeScript project of its nearest tsconfig.json.
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
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
      // A rejection passes on what it was given, as a `throw` may (only-throw-error's default):
      // an abort signal's reason, a caught fault. A literal or a value known not to be an Error
      // is still refused.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // The in-process adapters implement the asynchronous ports on synchronous code (a Map, the
    // synchronous better-sqlite3 driver). Their methods are `async` without an `await` on
    // purpose: whatever they throw reaches the caller as a rejected promise, as it would from a
    // network adapter. A forgotten `await` there is still caught, by no-floating-promises.
    files: ['src/adapters/memory/**/*.ts', 'src/adapters/sqlite/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // The test clients hand a response's JSON body as `any`, so that assertions read its fields
    // directly; the body's shape is checked against docs/openapi.yaml on every response instead
    // (test/support/openapi-contract.ts). The no-unsafe rules follow such an `any` (and the
    // `any` of JSON.parse and of the drivers' rows) into every assertion, so they are off there.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // JavaScript files are in no TypeScript project: this config, the preloads. The
    // examples import the built package (dist/), which `npm test` builds only after lint, so
    // their types are not known to lint; test/examples compiles them against the build.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs', 'examples/**/*.ts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // CommonJS on purpose: preloaded into a server process with `node --require`.
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
