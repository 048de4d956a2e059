// `npm run screenshot`: serves the demo exactly as `npm start` does (same config file, API latency
// 0, a free port), opens it in headless Chromium, uses a few sections the way a visitor would,
// and writes the page to docs/demo.png; then the devtools panel to docs/devtools.png and the
// board's loading boundary (with the API slowed down) to docs/boundary.png.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDemo } from '../server/start.mjs';
import { chromiumArgs, findBrowser } from './find-browser.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(root, process.argv[2] ?? 'docs/demo.png');

const executablePath = findBrowser();
if (!executablePath) {
  console.error(
    'No Chrome or Chromium found: run `BROWSERS=chromium node scripts/ensure-browser.mjs` first.',
  );
  process.exit(1);
}

process.chdir(root);
// The same server as `npm start`, on a free loopback port, with no API latency.
const server = await startDemo({ port: 0, latency: 0 });
const { port } = server.http.address();

const browser = await chromium.launch({ executablePath, headless: true, args: chromiumArgs });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (error) => console.error('page error:', error.message));
  await page.goto(`http://127.0.0.1:${port}/demo/`);

  // Playwright's CSS locators pierce open shadow roots, so these reach into the elements.
  const todos = page.locator('demo-todo-board');
  await todos.locator('demo-todo-list', { hasText: 'Write the spec' }).first().waitFor();

  // A todo added at the top lands in "All" and "Open", not in "Done".
  await todos.locator('demo-todo-form input').fill('Ship the demo');
  await todos.locator('demo-todo-form button[data-action="unshift"]').click();
  await todos.locator('demo-todo-list', { hasText: 'Ship the demo' }).nth(1).waitFor();

  // Open one todo in the detail view.
  await todos
    .locator('demo-todo-item button.title', { hasText: 'Review pull requests' })
    .first()
    .click();
  await todos.locator('demo-todo-detail dd.title').waitFor();

  // Two pages of posts.
  await page.locator('demo-post-feed button.more').click();
  await page.locator('demo-post-feed li', { hasText: 'News post 10' }).waitFor();

  // The other list of posts on its second page.
  await page.locator('demo-post-pages li', { hasText: 'Tech post 1' }).first().waitFor();
  await page.locator('demo-post-pages button.next').click();
  await page.locator('demo-post-pages li', { hasText: 'Tech post 6' }).waitFor();

  // A token for /api/me.
  await page.locator('demo-token-panel input').fill('abc123');
  await page.locator('demo-token-panel button[type="submit"]').click();
  await page.locator('demo-token-panel .name').waitFor();

  // A failure after a success: the last good answer stays, the error offers a retry.
  await page.locator('demo-error-panel button.break').click();
  await page.locator('demo-error-panel .alert').waitFor();

  await page.locator('demo-clock .ticks').waitFor();
  // Let focus rings and hover states go before the picture is taken.
  await page.mouse.move(0, 0);
  await page.evaluate(() => globalThis.document.activeElement?.blur?.());
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out, fullPage: true, animations: 'disabled' });
  console.log(`wrote ${out}`);

  // The devtools panel, opened from the header, over the same page.
  await page.locator('.devtools-toggle').click();
  const devtools = page.locator('resource-devtools');
  await devtools.locator('[data-type="Todo"]').waitFor();
  const devtoolsOut = resolve(dirname(out), 'devtools.png');
  await devtools.screenshot({ path: devtoolsOut, animations: 'disabled' });
  console.log(`wrote ${devtoolsOut}`);

  // The board's boundary while the API takes its time: its fallback, not a dozen spinners.
  await page.evaluate(() =>
    fetch('/api/__latency', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ms: 5000 }),
    }),
  );
  // A new page has a context of its own: no IndexedDB copy (persist) to show the board from.
  const fresh = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  await fresh.goto(`http://127.0.0.1:${port}/demo/`);
  await fresh.locator('#todos resource-boundary [part="fallback"]:not([hidden])').waitFor();
  const boundaryOut = resolve(dirname(out), 'boundary.png');
  await fresh.locator('#todos').screenshot({ path: boundaryOut, animations: 'disabled' });
  console.log(`wrote ${boundaryOut}`);
  await page.evaluate(() => fetch('/api/__reset', { method: 'POST' }));
} finally {
  await browser.close();
  await server.stop();
}
