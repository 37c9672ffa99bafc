export * from './packet';
export * from './commands';
export * from './replies';
