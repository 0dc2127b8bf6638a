export * from './user';
export * from './map';
export * from './subscription';
export * from './assembly';
export * from './drop';
export * from './war';
export * from './calendar';
export * from './comment';
