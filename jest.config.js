/** Jest runs the TypeScript tests directly with ts-jest; CLI tests spawn the built bin/run.js. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/setup/isolate-kubeconfig.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
  testTimeout: 60000,
  maxWorkers: 2,
};
