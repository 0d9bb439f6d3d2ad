export * from './lib/data-source';
export * from './lib/persistence.module';
export * from './lib/inbox-message.entity';
export * from './lib/inbox-message.migration';
export * from './lib/inbox.repository';
export * from './lib/keyed-leases';
