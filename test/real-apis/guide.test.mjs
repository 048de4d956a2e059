// The recipes of docs/guide/your-api.md are the files these tests run against the real servers:
// a recipe changed in one place and not the other fails here.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { blocksOf } from '../../scripts/docs-blocks.mjs';

const root = new URL('../../', import.meta.url);

describe('docs/guide/your-api.md', () => {
  const blocks = blocksOf('docs/guide/your-api.md');
  for (const recipe of ['drf', 'fastapi', 'express', 'rails']) {
    it(`shows test/real-apis/recipes/${recipe}.ts as it is`, () => {
      const file = readFileSync(new URL(`test/real-apis/recipes/${recipe}.ts`, root), 'utf8');
      const block = blocks.find((b) => b.name === `your-api-${recipe}.ts`);
      assert.ok(block, `a block named your-api-${recipe}.ts`);
      assert.equal(block.code.trimEnd(), file.trimEnd());
    });
  }
});
