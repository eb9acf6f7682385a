// Store locations as callers outside store/ need them, without loading an engine: whether a --db or
// remote value names a shared (PostgreSQL) store, and a URL shown without its password.

export { isPostgresUrl as isSharedStoreUrl, withoutPassword } from './postgres/url.js';
