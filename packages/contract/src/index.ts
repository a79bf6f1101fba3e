export * from './codes.ts';
export * from './constants.ts';
export * from './languages.ts';
export * from './decimal.ts';
export * from './formulas.ts';
