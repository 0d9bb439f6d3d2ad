// class-transformer keeps @Type() targets in this module but ships its types elsewhere.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
