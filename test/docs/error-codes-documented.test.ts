// Every Error code the service can send is documented, in docs/errors.md and in the OpenAPI document.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { load } from 'js-yaml';
import { ERROR_CATALOGUE } from '../../src/adapters/http/errors/error-catalogue.js';

describe('documented error codes', () => {
  const errorsDoc = readFileSync('docs/errors.md', 'utf8');
  const openapi = load(readFileSync('docs/openapi.yaml', 'utf8')) as {
    openapi: string;
    components: { schemas: { Error: { properties: { code: { enum: string[] } } } } };
  };

  it('docs/errors.md has a row for every code, with its status', () => {
    for (const [code, status] of Object.entries(ERROR_CATALOGUE)) {
      expect(errorsDoc, code).to.match(new RegExp(`\\|\\s*\`${code}\`\\s*\\|[^|\\n]*${status}`));
    }
  });

  it('docs/errors.md lists no code the catalogue lacks', () => {
    // The first cells of the rows of the table under `## Codes`, below its header.
    const section = errorsDoc.slice(errorsDoc.indexOf('\n## Codes\n'));
    const table = section.slice(section.indexOf('\n| -'), section.indexOf('\n#', 1));
    const listed = [...table.matchAll(/^\|\s*`([^`]+)`\s*\|/gm)].map(([, code]) => code!);
    expect(listed).to.include('not_found');
    expect(listed.filter((code) => !(code in ERROR_CATALOGUE))).to.deep.equal([]);
  });

  it('docs/openapi.yaml lists exactly the catalogued codes in the Error schema', () => {
    expect(openapi.openapi).to.match(/^3\.1\./);
    expect(openapi.components.schemas.Error.properties.code.enum).to.have.members(Object.keys(ERROR_CATALOGUE));
  });
});
