// @ts-check
// Lint rules for the whole project: typescript-eslint with type information, the rules of hooks, and jsx-a11y for
// the pages. Formatting is Prettier's job (.prettierrc.json); `npm run lint` runs both with zero warnings allowed.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'data/',
      'coverage/',
      'bench/results/',
      'client/public/',
      // Stryker's sandbox copies and reports (npm run mutation).
      '.stryker-tmp/',
      'reports/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Props and options are written as properties, so a handler taken out of its object keeps no hidden `this`
      // (and unbound-method only speaks of real methods).
      '@typescript-eslint/method-signature-style': ['error', 'property'],
      // A leading underscore names what is left out on purpose: `{ secret: _secret, ...shown }`, an unused argument.
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `import { type X }` keeps an empty import at run time; `import type { X }` leaves none.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // Fastify's hooks and tRPC's resolvers are async by contract, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // A function of the app longer than this holds several concerns: split it (docs/architecture.md, Rooms). Tests
    // are left out: a long test reads as one story.
    files: ['{server,client,shared,scripts}/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', { max: 150, IIFEs: true }] },
  },
  {
    // One asynchronous service layer in what Drizzle's SQLite and PostgreSQL dialects share (decision 037): a query
    // is awaited, never run by better-sqlite3's synchronous .get(), .all(), .run(), .values() or .sync(). `.values()`
    // is caught at the end of a query chain only, so a Map's or a Set's stays allowed.
    files: ['server/{services,auth,http,routers,rest}/**/*.ts', 'server/app.ts', 'server/root.ts'],
    ignores: [
      // SQLite's own, beside what both engines share in the same files (decision 037):
      // the build worker's snapshot and history, streamed from statements prepared once in one synchronous read
      // transaction on the worker's own connection (BUILDS), faster there than the awaited builds PostgreSQL uses.
      'server/services/tree/snapshot-build.ts',
      'server/services/tree/tree-history.ts',
      'server/services/tree/build-jobs.ts',
      // FTS5: raw db.run(sql) to index, a statement prepared once to search (PostgreSQL's: search-postgres.ts).
      'server/services/search/search.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          name: 'drizzle-orm/sqlite-core',
          importNames: ['alias'],
          message: "Use tableAlias from '#drizzle/tables.ts': it writes the dialect of the engine the app runs on.",
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[arguments.length=0] > MemberExpression.callee > Identifier.property[name=/^(get|all|run|sync)$/]',
          message:
            'Await the query instead (`(await q.limit(1))[0]`, `await q`): decision 037, one asynchronous layer.',
        },
        {
          selector:
            "CallExpression[arguments.length=0] > MemberExpression.callee[object.type='CallExpression'] > Identifier.property[name='values']",
          message: 'Await the query instead (`await q`): decision 037, one asynchronous layer.',
        },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks. The plugin's newer rules written for the React Compiler (refs, purity, effects that set
    // state, ...) are not turned on: the app does not use that compiler, and the places they name are deliberate
    // (docs/decisions/030-guardrails.md).
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['client/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // Tests read answers as JSON (typed `any`) and pass methods to expect(): the checks on `any` and on unbound
    // methods would flag the very thing a test inspects.
    files: ['tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // `inject(...).json() as { r: Shape }` is how a test names the shape it expects.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
);
