// The type of /vendor/eventsource-parser/index.js, which the service serves from node_modules/eventsource-parser.
export * from 'eventsource-parser';
