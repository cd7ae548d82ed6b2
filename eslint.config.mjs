import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

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
    // and the finding helpers are bundled with it, so the same rules hold there. Workflows see
    // activities only as types.
    files: ['workflows/**/*.ts', 'src/contract/**/*.ts', 'src/findings/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
          patterns: [
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Workflows import activities as types only (proxyActivities).' },
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
      'no-restricted-imports': ['error', { patterns: [{ group: ['@nestjs/*', '@temporalio/*', '../*', '!../sdk', '!../sdk/**'], message: 'The SDK stands alone: no server code, no Nest, no Temporal.' }] }],
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
    // A route is declared once, in a *.routes.ts, and served with @ApiRoute: the OpenAPI document
    // and the 405 Allow header are built from those declarations, so no route may bypass them.
    files: ['src/api/**/*.ts'],
    ignores: ['src/api/http/api-route.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@nestjs/common',
              importNames: ['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Head', 'Options', 'Search', 'RequestMapping', 'HttpCode'],
              message: 'Declare the route in a *.routes.ts and serve it with @ApiRoute (src/api/http/api-route.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
