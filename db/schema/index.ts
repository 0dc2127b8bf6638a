export * from './user';
export * from './drop';
export * from './war';
export * from './calendar';
