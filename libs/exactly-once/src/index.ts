export * from './lib/candidate-locks';
export * from './lib/event-order';
export * from './lib/write-once';
export * from './lib/link-table';
export * from './lib/link-table.sql';
