// The core must run where there is no DOM. This Node process has none; the package is imported by
// its own name, so the exports map's "./core" entry is what gets resolved.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';

describe('resource-elements/core in plain Node', () => {
  it('has no DOM globals to lean on', () => {
    for (const name of ['window', 'document', 'HTMLElement', 'customElements']) {
      assert.equal(name in globalThis, false, `${name} should not exist in this process`);
    }
  });

  it('loads through the exports map and works', async () => {
    const core = await import('resource-elements/core');
    assert.equal(core.fillPath('/:group/posts/:id', { group: 'news', id: 7 }), '/news/posts/7');
    assert.equal(core.shortenPath('/:group/posts/:id'), '/:group/posts');
  });
});
