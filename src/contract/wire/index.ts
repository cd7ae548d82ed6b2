// The wire: every shape a client sends or reads, declared once as a zod schema. The API validates
// requests and writes /openapi.json with these schemas; the SDK, the contract and the service take
// their types from them (type-only outside the API, so neither the workflow bundle nor the SDK's
// run time holds zod); values.ts holds the plain lists and bounds they are built from.

export * from './assessment';
export * from './assessment-limits';
export * from './batch';
export * from './error-body';
export * from './listing';
export * from './model';
export * from './review';
export * from './task';
export * from './usage';
export * from './values';
export * from './webhook';
