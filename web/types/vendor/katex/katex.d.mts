// The type of /vendor/katex/katex.mjs, which the service serves from node_modules/katex.
export { default } from 'katex';
