export * from './lib/connector-directory.stub';
