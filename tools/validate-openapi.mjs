// `node tools/validate-openapi.mjs <file>`: validates an OpenAPI document (the validator is an ES module,
// which Jest's CommonJS runtime cannot load, so tests run this in a child process). Prints the errors.
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';

const file = process.argv[2];
const result = await new Validator().validate(JSON.parse(readFileSync(file, 'utf8')));
if (result.valid) {
  console.log(
    `✓ ${file} is a valid OpenAPI ${new Validator().version ?? ''} document`.replace(
      / +document/,
      ' document',
    ),
  );
} else {
  console.error(`✖ ${file} is not valid OpenAPI:\n${JSON.stringify(result.errors, null, 2)}`);
  process.exit(1);
}
