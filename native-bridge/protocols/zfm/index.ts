export * from './packet';
export * from './codes';
export * from './commands';
export * from './data';
export * from './replies';
