// `npm run test:cluster`: the suites of test/cluster, each against `npm run cluster`'s topology
// (src/cluster) started for its file. One file at a time: each runs a dozen processes.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  reporters: ['default', '<rootDir>/scripts/jest-results-file.js'],
  roots: ['<rootDir>/test/cluster'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 120_000,
  maxWorkers: 1,
  slowTestThreshold: 120,
};
