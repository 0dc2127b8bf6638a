export * from './user';
export * from './assembly';
