import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = [
  '/**',
  ' * Generated from docs/openapi.json by openapi-typescript (npm run client:generate).',
  ' * Do not edit: change the API, then run npm run openapi && npm run client:generate.',
  ' */',
  '',
].join('\n');

/** The TypeScript types of the API (paths, operations, components) for openapi-fetch. */
export async function generateClientSchema(specText: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(specText), { alphabetize: true, defaultNonNullable: false });
  return HEADER + astToString(ast);
}
