export * from './packet';
export * from './commands';
