export * from './lib/connector-directory.stub';
export * from './lib/gateway-setup';
