import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

const ROUTE_DECORATORS = {
  name: '@nestjs/common',
  importNames: ['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Head', 'Options', 'Search', 'RequestMapping', 'HttpCode'],
  message: 'Declare the route in a *.routes.ts and serve it with @ApiRoute (src/api/platform/http/api-route.ts).',
};

const PLATFORM_KNOWS_NO_RESOURCE = {
  regex: '^(\\.\\./)+(tasks|batches|assessments|review|webhooks|usage|models|console|app\\.module|create-api-app|main)(/|$)',
  message: "The API's platform imports no resource and not the app that assembles them: pass what it needs in (a parameter, a provider), as OpenApiModule.register does.",
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '.tools/**', 'coverage/**', 'bin/**', 'scripts/**', '*.js', '*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no I/O, no Node built-ins. The contract
    // and the finding helpers are bundled with it, so the same rules hold there. Workflows know
    // activities only by the interfaces the contract declares.
    files: ['workflows/**/*.ts', 'src/contract/**/*.ts', 'src/findings/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
          patterns: [
            { group: ['**/activities', '**/activities/**'], message: 'Workflows import nothing from activities/: proxy the activity interfaces src/contract declares.' },
            {
              group: ['**/src/*', '**/src/*/**', '!**/src/contract', '!**/src/contract/**', '!**/src/findings', '!**/src/findings/**'],
              allowTypeImports: true,
              message: 'Workflow code imports only the contract and the finding helpers from src/.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' }, { name: 'setInterval', message: 'Use sleep() in a loop.' }],
    },
  },
  {
    // Activities run in the worker's Node process and workflows in the sandbox; what both need lives
    // outside workflows/ (src/contract, src/findings), so a change to a workflow file never reaches an activity.
    files: ['activities/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/workflows', '**/workflows/**'], message: 'Activities do not import workflows; share pure code through src/findings or src/contract.' }] }],
    },
  },
  {
    // The published SDK runs in customers' processes: nothing of the server may come with it.
    files: ['src/sdk/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', '@temporalio/*'], message: 'The SDK stands alone: no server code, no Nest, no Temporal.' },
            { regex: '^(\\.\\./)+(?!sdk(/|$)|contract/wire(/|$))', message: 'The SDK stands alone: no server code, no Nest, no Temporal.' },
            {
              regex: '^\\.\\./contract/wire(/(?!values$).*)?$',
              allowTypeImports: true,
              message: "The SDK takes the wire's types and its plain lists (wire/values) only: the schemas would bring zod into every client.",
            },
          ],
        },
      ],
    },
  },
  {
    // The customer commands talk to the HTTP API through the SDK and nothing else: no server code,
    // and not the operators' direct access to Temporal or the key store.
    files: ['src/cli/customer/**/*.ts', 'src/cli/exit-codes.ts', 'src/cli/command-runner.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@nestjs/*', '@temporalio/*', '**/common', '**/common/**', '**/api/**', '**/worker/**', '**/contract', '**/contract/**', '**/reviewer/**', '**/operator/**'],
              message: 'The customer CLI uses only the SDK (src/sdk) and the CLI\'s shared parts.',
            },
          ],
        },
      ],
    },
  },
  {
    // The review console is bundled for the browser by esbuild (scripts/build-console.js), which
    // erases type imports and bundles every value import: nothing of the server may come with it,
    // and the contract only as types (its update definitions pull in Temporal's workflow library).
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@nestjs/*', '@temporalio/*', '**/src/api', '**/src/api/**', '**/src/worker', '**/src/worker/**', '**/src/common', '**/src/common/**'],
              message: 'The console imports no server code: wire types come from src/sdk and the contract (src/contract/wire).',
            },
            { group: ['**/src/contract', '**/src/contract/**'], allowTypeImports: true, message: "The console imports only the contract's types: its values bring Temporal into the bundle." },
          ],
        },
      ],
    },
  },
  {
    // The reviewer CLI talks to the reviewer API over HTTP, like the console: no server code.
    files: ['src/cli/reviewer/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@nestjs/*', '@temporalio/*', '**/api', '**/api/**', '**/worker', '**/worker/**', '**/common', '**/common/**'],
              message: 'The reviewer CLI imports no server code: wire types come from src/sdk and the contract (src/contract/wire).',
            },
          ],
        },
      ],
    },
  },
  {
    // A route is declared once, in a *.routes.ts, and served with @ApiRoute: the OpenAPI document
    // and the 405 Allow header are built from those declarations, so no route may bypass them.
    files: ['src/api/**/*.ts'],
    ignores: ['src/api/platform/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ROUTE_DECORATORS] }] },
  },
  {
    // The API's platform (HTTP, credentials, listing, waits, Temporal, storage, OpenAPI assembly)
    // serves every resource and knows none: a resource's folder imports the platform, never the reverse.
    files: ['src/api/platform/**/*.ts'],
    ignores: ['src/api/platform/http/api-route.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ROUTE_DECORATORS], patterns: [PLATFORM_KNOWS_NO_RESOURCE] }] },
  },
  {
    files: ['src/api/platform/http/api-route.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [PLATFORM_KNOWS_NO_RESOURCE] }] },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
