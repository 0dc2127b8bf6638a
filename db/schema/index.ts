export * from './user';
export * from './map';
export * from './subscription';
export * from './assembly';
