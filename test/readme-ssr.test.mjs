// The README's server-rendering example (test/e2e/readme-ssr-examples.ts, loaded through tsx),
// served for real: its Node server renders the todo list with the data it prefetched from the
// demo's API.
import { describe, it, before, after } from 'node:test';
import { strict as assert } from 'node:assert';
import { startDevServer } from '@web/dev-server';
import { middleware } from '../server/middleware.mjs';
import { serve } from './e2e/readme-ssr-examples.js';

describe('README: server rendering', () => {
  let api;
  let site;
  let page;

  before(async () => {
    api = await startDevServer({
      config: { rootDir: process.cwd(), hostname: '127.0.0.1', port: 0, middleware: middleware() },
      readCliArgs: false,
      readFileConfig: false,
      logStartMessage: false,
    });
    const apiOrigin = `http://127.0.0.1:${api.server.address().port}`;
    site = serve(0, apiOrigin);
    await new Promise((resolve) => site.once('listening', resolve));
    const response = await fetch(`http://127.0.0.1:${site.address().port}/`);
    assert.equal(response.status, 200);
    page = await response.text();
  });

  after(async () => {
    site?.close();
    await api?.stop();
  });

  it("renders Ada's todos into the page, with the store in the provider's script", () => {
    const shown = page.replace(/<!--[^]*?-->/g, '').replace(/\s+/g, ' ');
    assert.match(shown, /<li>Write the spec<\/li> ?<li>Review pull requests<\/li>/);
    assert.ok(!shown.includes('Loading…'));
    assert.match(
      page,
      /<resource-provider[^>]*>[^]*<script type="application\/json" data-resource-state>/,
    );
    assert.match(page, /^<!doctype html>/);
    assert.match(page, /<\/body><\/html>$/);
  });
});
