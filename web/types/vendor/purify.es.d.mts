// The type of /vendor/purify.es.mjs, which the service serves from node_modules/dompurify.
export * from 'dompurify';
export { default } from 'dompurify';
