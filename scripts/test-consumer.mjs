// The consumer test: what a new user gets from the published package. It packs the built library
// (`npm pack`), installs the tarball into a copy of test/consumer (an app written as the README
// teaches, with its own pinned bundlers and its own lit), builds it for production with Vite,
// Rollup, esbuild and webpack, serves each build next to a small real JSON API, and checks in
// Chromium that <resource-provider> is defined, the list shows the server's items, a push sends
// exactly one POST and shows the row, the console stays clean and the page runs one copy of lit;
// and, with resource-elements/managers and `sync-tabs`, that a push in one tab shows in another
// tab of the same page with no request from it.
// It also searches each production bundle for development-only warning text (and the esbuild
// development build, as a control, for its presence) and prints each bundle's gzip size.
//
//   node scripts/test-consumer.mjs [--skip-build] [--keep]
//
// --skip-build uses the current dist/ (npm test builds just before); --keep leaves the temporary
// folder. Counts go to .test-results/consumer.json for npm test's summary line.
import { Buffer } from 'node:buffer';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { chromiumArgs, findBrowser } from './find-browser.mjs';
import { runChecked, timed } from './counts-reporter.mjs';
import { blocksOf, guideFiles } from './docs-blocks.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixture = join(root, 'test/consumer');
const args = process.argv.slice(2);
const started = Date.now();
// Bounded in time: a hung install, build or page fails the run instead of holding npm test.
const limitMs = Number(process.env.CONSUMER_TEST_TIMEOUT_MS ?? 6 * 60_000);
const deadline = setTimeout(() => {
  console.error(`consumer test: over its ${limitMs / 1000} s limit, stopped.`);
  process.exit(1);
}, limitMs);
deadline.unref();

/**
 * Text that only development builds may contain: the library's development-only warnings and
 * misuse advice (the facts of an error stay in production), and Lit's dev mode notice.
 */
const devOnlyText = [
  'has no static key, so its class name is used',
  'or provide controllerContext to it',
  'does the server send the wrong Content-Type?',
  'for several types use new schema.Union',
  'Lit is in dev mode',
];
/** Of those, what the development build of the app must keep (Lit's notice is its own). */
const devKept = devOnlyText.slice(0, -1);

const env = {
  ...process.env,
  PUPPETEER_SKIP_DOWNLOAD: '1',
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  NODE_ENV: '',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/** The stderr of the last run() (npm prints its warnings there). */
let lastStderr = '';
function run(command, commandArgs, cwd) {
  const result = runChecked(command, commandArgs, cwd, env);
  lastStderr = result.stderr;
  return result.stdout;
}

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

const results = [];
function check(name, ok, detail = '') {
  results.push({ name, ok });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

// --- 1. pack, copy the fixture, install ---------------------------------------------------------
const work = mkdtempSync(join(tmpdir(), 'resource-elements-consumer-'));
const app = join(work, 'app');
console.log(`consumer test in ${work}`);
if (!args.includes('--skip-build'))
  timed('npm run build', () => run('npm', ['run', 'build'], root));
// --ignore-scripts: dist/ is built above (or by npm test), and `prepack` would build it again.
const packed = JSON.parse(
  timed('npm pack', () =>
    run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], root),
  ),
);
const tarball = join(work, packed[0].filename);
const shipped = packed[0].files.map((file) => file.path);
cpSync(fixture, app, {
  recursive: true,
  filter: (path) => !/[/\\](node_modules|out)([/\\]|$)/.test(relative(fixture, path)),
});
const installOutput = timed('npm install (fixture + tarball)', () =>
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app),
);
const installWarnings = `${installOutput}\n${lastStderr}`;

// --- 2. builds ------------------------------------------------------------------------------------
const bin = (name) => join(app, 'node_modules/.bin', name);
const esbuildArgs = (mode, outdir) => [
  'src/main.js',
  'src/bare.js',
  'src/synced.js',
  '--bundle',
  '--format=esm',
  '--platform=browser',
  '--log-level=warning',
  `--define:process.env.NODE_ENV="${mode}"`,
  `--outdir=${outdir}`,
  ...(mode === 'production' ? ['--minify'] : []),
];
const builds = [
  { name: 'vite', build: () => run(bin('vite'), ['build'], app) },
  { name: 'rollup', build: () => run(bin('rollup'), ['-c', 'rollup.config.js'], app) },
  {
    name: 'esbuild',
    build: () => run(bin('esbuild'), esbuildArgs('production', 'out/esbuild'), app),
  },
  {
    name: 'webpack',
    build: () => run(process.execPath, ['build-webpack.js'], app),
  },
  {
    name: 'esbuild-dev',
    dev: true,
    build: () => run(bin('esbuild'), esbuildArgs('development', 'out/esbuild-dev'), app),
  },
];
for (const build of builds) {
  timed(`build ${build.name}`, build.build);
  build.dir = join(app, 'out', build.name);
  // Vite writes its own HTML; the others get the same three pages, loading ./main.js, ./bare.js
  // and ./synced.js.
  if (build.name !== 'vite') cpSync(join(app, 'static'), build.dir, { recursive: true });
}

// --- 3. a static server with a small JSON API ---------------------------------------------------
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

function serve(dir) {
  const state = { items: [], posts: 0, gets: 0, scripts: new Set() };
  state.items = [
    { id: '1', name: 'Alpha' },
    { id: '2', name: 'Beta' },
  ];
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const json = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/items' && req.method === 'GET') {
      state.gets += 1;
      return json(200, state.items);
    }
    if (url.pathname === '/api/items' && req.method === 'POST') {
      state.posts += 1;
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const item = { ...JSON.parse(body || '{}'), id: String(state.items.length + 1) };
        state.items.push(item);
        json(201, item);
      });
      return undefined;
    }
    if (url.pathname.startsWith('/api/')) return json(404, { error: 'not found' });
    const file = join(dir, decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname));
    if (!file.startsWith(dir + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return undefined;
    }
    if (file.endsWith('.js')) state.scripts.add(file);
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
    return undefined;
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => done({ server, state, port: server.address().port })),
  );
}

// --- 4. checks ------------------------------------------------------------------------------------
const litPackages = ['lit', 'lit-html', 'lit-element', '@lit/reactive-element', '@lit/context'];
const installed = filesUnder(join(app, 'node_modules'))
  .filter((file) => file.endsWith(`${sep}package.json`))
  .map((file) => {
    try {
      return { file, name: JSON.parse(readFileSync(file, 'utf8')).name };
    } catch {
      return { file, name: undefined };
    }
  })
  .filter(
    ({ file, name }) => litPackages.includes(name) && file.endsWith(`${name}${sep}package.json`),
  );
check(
  'the installed app has one copy of each lit package (peers, not dependencies of resource-elements)',
  litPackages.every((name) => installed.filter((entry) => entry.name === name).length === 1),
  installed.map(({ file }) => relative(app, dirname(file))).join(', '),
);
// Every file package.json `exports` and custom-elements.json name must be in the tarball.
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const exported = Object.values(packageJson.exports).flatMap((target) =>
  typeof target === 'string' ? [target] : [target.types, target.default],
);
const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8'));
const manifestPaths = manifest.modules.map((module) => module.path);
const pointedAt = ['LICENSE', 'README.md', 'custom-elements.json', ...exported, ...manifestPaths]
  .filter(Boolean)
  .map((file) => file.replace(/^\.\//, ''));
const missing = pointedAt.filter((file) => !shipped.includes(file));
check(
  'the tarball ships what package.json and custom-elements.json point at, and no sources',
  missing.length === 0 && !shipped.some((file) => file.startsWith('src/')),
  missing.length ? `missing: ${missing.join(', ')}` : `${pointedAt.length} files`,
);

check(
  `installing the tarball on Node ${process.version} prints no EBADENGINE`,
  !installWarnings.includes('EBADENGINE'),
  installWarnings
    .split('\n')
    .filter((line) => line.includes('EBADENGINE'))
    .join(' | '),
);

const browser = await chromium.launch({ executablePath: findBrowser(), args: chromiumArgs });
const sizes = [];
try {
  for (const build of builds) {
    console.log(`\n${build.name}${build.dev ? ' (development build, control)' : ''}:`);
    const bundleText = filesUnder(build.dir)
      .filter((file) => file.endsWith('.js'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const found = devOnlyText.filter((text) => bundleText.includes(text));
    if (build.dev) {
      check(
        `${build.name}: the development build keeps the development-only text`,
        devKept.every((text) => found.includes(text)),
        devKept.filter((text) => !found.includes(text)).join('; '),
      );
    } else {
      check(
        `${build.name}: no development-only text in the bundle`,
        found.length === 0,
        found.join('; '),
      );
    }

    const { server, state, port } = await serve(build.dir);
    const context = await browser.newContext();
    const page = await context.newPage();
    const messages = [];
    page.on('console', (message) => {
      if (['error', 'warning'].includes(message.type()))
        messages.push(`${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
    try {
      const base = `http://127.0.0.1:${port}`;
      await page.goto(`${base}/index.html`);
      const rows = () =>
        page.evaluate(() =>
          [...(document.querySelector('item-list')?.shadowRoot?.querySelectorAll('li') ?? [])].map(
            (li) => li.textContent.trim(),
          ),
        );
      const waitRows = (count) =>
        page
          .waitForFunction(
            (n) =>
              document.querySelector('item-list')?.shadowRoot?.querySelectorAll('li').length === n,
            count,
            { timeout: 15_000 },
          )
          .then(
            () => true,
            () => false,
          );
      const defined = await page.evaluate(() => Boolean(customElements.get('resource-provider')));
      const listed = await waitRows(2);
      const shown = await rows();
      check(
        `${build.name}: the list shows the server's items`,
        listed && shown.join() === 'Alpha,Beta',
        shown.join(', ') ||
          (await page.evaluate(
            () => document.querySelector('item-list')?.shadowRoot?.textContent?.trim() ?? '',
          )),
      );
      let pushed = false;
      if (listed) {
        await page.locator('item-list button').click();
        pushed = await waitRows(3);
        await page.waitForTimeout(300); // a second POST, if one were sent, would arrive by now
      }
      const after = await rows();
      check(
        `${build.name}: a push sends exactly one POST and shows the row`,
        pushed && state.posts === 1 && after.at(-1) === 'Gamma',
        `${state.posts} POST, rows ${after.join(', ')}`,
      );
      const litVersions = await page.evaluate(() => globalThis.litHtmlVersions ?? []);
      check(
        `${build.name}: the page runs one copy of lit`,
        litVersions.length === 1,
        `litHtmlVersions ${JSON.stringify(litVersions)}`,
      );
      const mainScripts = [...state.scripts];
      await page.goto(`${base}/bare.html`);
      await page.waitForFunction(() => document.body.dataset.provider, null, { timeout: 15_000 });
      const bare = await page.evaluate(() => ({ ...document.body.dataset }));
      check(
        `${build.name}: <resource-provider> is defined, with named imports and with a bare import`,
        defined && bare.provider === 'defined',
        `named: ${defined ? 'defined' : 'missing'}, bare: ${bare.provider}`,
      );
      check(
        `${build.name}: bare imports of resource-elements/boundary and /devtools define their elements`,
        bare.boundary === 'defined' && bare.devtools === 'defined',
        `boundary: ${bare.boundary}, devtools: ${bare.devtools}`,
      );
      // Two tabs of the synced page (resource-elements/managers, `sync-tabs`): a push in one shows
      // in the other without the other asking the server.
      const count = state.items.length;
      const tabs = [page, await context.newPage()];
      tabs[1].on('console', (message) => {
        if (['error', 'warning'].includes(message.type()))
          messages.push(`${message.type()}: ${message.text()}`);
      });
      tabs[1].on('pageerror', (error) => messages.push(`pageerror: ${error.message}`));
      const tabRows = (tab, n) =>
        tab
          .waitForFunction(
            (want) =>
              document.querySelector('item-list')?.shadowRoot?.querySelectorAll('li').length ===
              want,
            n,
            { timeout: 15_000 },
          )
          .then(
            () => true,
            () => false,
          );
      let synced = false;
      const posts = state.posts;
      let gets = 0;
      for (const tab of tabs) await tab.goto(`${base}/synced.html`);
      if ((await tabRows(tabs[0], count)) && (await tabRows(tabs[1], count))) {
        gets = state.gets;
        await tabs[0].locator('item-list button').click();
        synced = await tabRows(tabs[1], count + 1);
        await tabs[1].waitForTimeout(300); // a request of the second tab, if one were sent
      }
      check(
        `${build.name}: with resource-elements/managers, a push in one tab shows in the other, which sends nothing`,
        synced && state.posts === posts + 1 && state.gets === gets,
        `shown there: ${synced}, ${state.posts - posts} POST, ${state.gets - gets} GET after the push`,
      );
      check(
        `${build.name}: the console has no error or warning`,
        messages.length === 0,
        messages.join(' | '),
      );
      const js = Buffer.concat(mainScripts.map((file) => readFileSync(file)));
      sizes.push({
        name: build.name,
        raw: js.length,
        gzip: gzipSync(js, { level: 9 }).length,
        files: mainScripts.length,
      });
    } finally {
      await context.close();
      server.close();
    }
  }
} finally {
  await browser.close();
}

// --- 5. the guide's pages without Lit, built by Vite as their readers would -----------------------
// docs/guide/without-lit.md's recipes, written out as printed (with the guide's resources.ts and
// the README's tsconfig.json, whose decorator settings FAST needs): none may bundle Lit's runtime.
/** Strings each of Lit's runtime packages puts in any bundle of it (its version list). */
const litRuntime = ['reactiveElementVersions', 'litHtmlVersions', 'litElementVersions'];
const recipes = ['vanilla-todos.html', 'fast-todos.html', 'plain-todos.html'];
const recipeDir = join(app, 'recipes');
mkdirSync(recipeDir);
for (const [name, code] of Object.entries(guideFiles())) writeFileSync(join(recipeDir, name), code);
const tsconfig = blocksOf('README.md').find((block) => block.name === 'tsconfig.json');
writeFileSync(join(recipeDir, 'tsconfig.json'), tsconfig.code);
writeFileSync(
  join(app, 'vite.recipes.config.js'),
  `export default { root: 'recipes', logLevel: 'warn', build: { outDir: '../out/recipes', emptyOutDir: true, rollupOptions: { input: ${JSON.stringify(recipes.map((page) => `recipes/${page}`))} } } };`,
);
timed('build the recipes (vite)', () =>
  run(bin('vite'), ['build', '--config', 'vite.recipes.config.js'], app),
);
console.log("\nthe guide's pages without Lit (vite):");
const recipeSizes = [];
for (const page of recipes) {
  const html = readFileSync(join(app, 'out/recipes', page), 'utf8');
  // What the page loads: its module script and the chunks it preloads.
  const scripts = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((match) =>
    join(app, 'out/recipes', match[1]),
  );
  const js = Buffer.concat(scripts.map((file) => readFileSync(file)));
  const text = js.toString('utf8');
  const lit = litRuntime.filter((marker) => text.includes(marker));
  check(
    `${page}: bundles no Lit runtime (lit, lit-html, @lit/reactive-element)`,
    scripts.length > 0 && lit.length === 0,
    lit.length
      ? `found ${lit.join(', ')}`
      : `${scripts.length} file(s), ${kb(gzipSync(js, { level: 9 }).length)} gzip`,
  );
  recipeSizes.push({ name: page, raw: js.length, gzip: gzipSync(js, { level: 9 }).length });
}

// --- 6. report ------------------------------------------------------------------------------------
console.log('\nJavaScript the app page loads (all its chunks), gzip -9:');
for (const size of sizes) {
  console.log(
    `  ${size.name.padEnd(12)} ${kb(size.gzip).padStart(9)} gzip  ${kb(size.raw).padStart(10)} raw  (${size.files} file${size.files === 1 ? '' : 's'})`,
  );
}
console.log("\nJavaScript each of the guide's pages without Lit loads, gzip -9 (vite):");
for (const size of recipeSizes) {
  console.log(
    `  ${size.name.padEnd(20)} ${kb(size.gzip).padStart(9)} gzip  ${kb(size.raw).padStart(10)} raw`,
  );
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
mkdirSync(join(root, '.test-results'), { recursive: true });
writeFileSync(
  join(root, '.test-results/consumer.json'),
  JSON.stringify({ passed, failed, skipped: 0, sizes, recipes: recipeSizes }),
);
console.log(
  `\nconsumer: ${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
if (args.includes('--keep')) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
process.exit(failed === 0 ? 0 : 1);
