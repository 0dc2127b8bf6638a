// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so).
export { accountStateOf, accountStateSql, assertPrivilege, effectivePrivileges, holdsPrivilege } from './holders';
export { type TPrivilegeType, type TRight, typeInfo } from './tree';
