/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  reporters: ['default', '<rootDir>/scripts/jest-results-file.js'],
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // npm run test:cluster's (jest.cluster.config.js).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/cluster/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 60_000,
  maxWorkers: 2,
  // Each integration file starts its own Temporal dev server; a slow machine needs headroom.
  slowTestThreshold: 30,
};
