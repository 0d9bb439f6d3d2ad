export * from './lib/test-world';
