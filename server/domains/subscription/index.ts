// What other domains may import from this one, besides its schemas.ts; the rest of the folder is its own
// (biome.json's noRestrictedImports keeps it so).
export { importSubscriptionCatalog, setGoal, upsertPayType, upsertPlan, upsertTier } from './catalog-writes';
export { toMinor } from './money';
export { expirePendingOrders, getOrder } from './order-reads';
export { confirmOrder } from './orders';
