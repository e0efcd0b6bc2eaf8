import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { buildOpenApiSpec } from './openapi-spec.js';
import { OPENAPI_FILE, ROOT } from './paths.js';

/** npm run openapi: writes docs/openapi.json (then npm run client:generate updates the client). */
writeFileSync(OPENAPI_FILE, await buildOpenApiSpec());
console.log(`wrote ${relative(ROOT, OPENAPI_FILE)}`);
