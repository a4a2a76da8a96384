/** Jest runs the TypeScript tests directly with ts-jest; CLI tests spawn the built bin/run.js. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/setup/isolate-kubeconfig.ts', '<rootDir>/test/setup/allow-local-state.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }], '^.+\\.js$': '<rootDir>/test/helpers/esm-transform.js' },
  // ESM-only packages (see test/helpers/esm-transform.js) are transformed; the rest of node_modules is not.
  transformIgnorePatterns: ['/node_modules/(?!(@kubernetes/client-node|openid-client|oauth4webapi|jose)/)'],
  testTimeout: 60000,
  maxWorkers: 2,
};
