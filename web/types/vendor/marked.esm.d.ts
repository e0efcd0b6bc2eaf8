// The type of /vendor/marked.esm.js, which the service serves from node_modules/marked.
export * from 'marked';
