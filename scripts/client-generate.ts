import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { generateClientSchema } from './client-schema.js';
import { CLIENT_SCHEMA_FILE, OPENAPI_FILE, ROOT } from './paths.js';

/** npm run client:generate: clients/typescript/src/schema.ts from docs/openapi.json. */
writeFileSync(CLIENT_SCHEMA_FILE, await generateClientSchema(readFileSync(OPENAPI_FILE, 'utf8')));
console.log(`wrote ${relative(ROOT, CLIENT_SCHEMA_FILE)} from ${relative(ROOT, OPENAPI_FILE)}`);
