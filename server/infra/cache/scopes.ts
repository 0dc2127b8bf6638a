/** The named cache scopes (index.ts documents each). */
export type TCacheScopeName = 'item' | 'list' | 'dropCurrent';

/** Key prefixes in the shared LRU: every key of a scope starts with its prefix, so a scope is dropped by one prefix invalidation. */
const SCOPE_PREFIX: Record<TCacheScopeName, string> = {
  item: 'assembly:item:',
  list: 'assembly:list:',
  dropCurrent: 'drop:current:',
};

/** Every scope's key prefix. */
export const SCOPE_PREFIXES: readonly string[] = Object.values(SCOPE_PREFIX);

/** The key prefix of a scope in the shared LRU (stored answers are kept under it). */
export function scopePrefix(scope: TCacheScopeName): string {
  return SCOPE_PREFIX[scope];
}
