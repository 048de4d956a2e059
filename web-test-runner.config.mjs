// The browser suite in one engine: WTR_ENGINE=chromium (the default), firefox or webkit.
// `node scripts/test-browsers.mjs` (what `npm test` runs) runs it once per engine; WebKit also
// needs WEBKIT_DRIVER_PORT, the port of a WebKitWebDriver that the script starts under xvfb-run.
import { chromeLauncher, puppeteerCore } from '@web/test-runner-chrome';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import { defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { engines, chromiumArgs } from './scripts/find-browser.mjs';
import { countsReporter } from './scripts/counts-reporter.mjs';
import { middleware } from './server/middleware.mjs';
import { firstApp, guideFiles } from './scripts/docs-blocks.mjs';

const engine = process.env.WTR_ENGINE ?? 'chromium';
if (!(engine in engines)) {
  console.error(`WTR_ENGINE is "${engine}"; known engines: ${Object.keys(engines).join(', ')}.`);
  process.exit(1);
}
const found = engines[engine].find();
if (!found) {
  console.error(`${engine} not found: run \`node scripts/ensure-browser.mjs\`.`);
  process.exit(1);
}

function launcher() {
  if (engine === 'chromium') {
    // --expose-gc: the leak test (test/reliability/leaks.browser.test.ts) forces a collection
    // before it reads the heap, so its growth figures are not the collector's timing.
    return chromeLauncher({
      launchOptions: {
        executablePath: found,
        headless: true,
        args: [...chromiumArgs, '--js-flags=--expose-gc'],
      },
    });
  }
  if (engine === 'firefox') {
    // Firefox through puppeteer over WebDriver BiDi: Debian has no geckodriver.
    return chromeLauncher({
      puppeteer: puppeteerCore,
      launchOptions: { browser: 'firefox', executablePath: found, headless: true },
    });
  }
  const port = Number(process.env.WEBKIT_DRIVER_PORT);
  if (!Number.isInteger(port) || port <= 0) {
    console.error(
      'webkit needs WEBKIT_DRIVER_PORT: run it through `node scripts/test-browsers.mjs`.',
    );
    process.exit(1);
  }
  return webdriverLauncher({
    hostname: '127.0.0.1',
    port,
    logLevel: 'error',
    capabilities: {
      browserName: 'MiniBrowser',
      // webdriverio 9 asks for a BiDi session unless told not to; WebKitWebDriver refuses it.
      'wdio:enforceWebDriverClassic': true,
      'webkitgtk:browserOptions': { args: ['--automation'] },
    },
  });
}

/**
 * Serves the README's first app at /first-app/ (index.html, main.ts) exactly as printed, read from
 * the README at each request; its imports of `resource-elements` go to src/, as in the other tests.
 * test/e2e/todo-pages.browser.test.ts loads it.
 */
function firstAppPlugin() {
  return {
    name: 'first-app',
    serve(context) {
      const name = /^\/first-app\/([\w.-]+)$/.exec(context.path)?.[1];
      const code = name && firstApp()[name];
      if (!code) return undefined;
      return { body: code, type: name.endsWith('.html') ? 'html' : 'js' };
    },
    resolveImport({ source, context }) {
      if (!context.path.startsWith('/first-app/')) return undefined;
      const entry = /^resource-elements(?:\/(\w+))?$/.exec(source);
      if (!entry) return undefined;
      return entry[1] ? `/src/${entry[1]}/index.ts` : '/src/index.ts';
    },
  };
}

/**
 * Serves the guide's named code blocks at /guide/ (fast-todos.html, fast-todos.ts, resources.ts…)
 * exactly as printed, read from docs/guide/ at each request: a block's `./resources.js` is the
 * `// resources.ts` block (the guide's pages share one folder), and `resource-elements` goes to
 * src/. test/e2e/todo-pages.browser.test.ts loads the guide's pages so.
 */
function guidePlugin() {
  return {
    name: 'guide',
    serve(context) {
      const name = /^\/guide\/([\w.-]+)$/.exec(context.path)?.[1];
      const code = name && guideFiles()[name];
      if (!code) return undefined;
      return { body: code, type: name.endsWith('.html') ? 'html' : 'js' };
    },
    resolveImport({ source, context }) {
      if (!context.path.startsWith('/guide/')) return undefined;
      const entry = /^resource-elements(?:\/(\w+))?$/.exec(source);
      if (entry) return entry[1] ? `/src/${entry[1]}/index.ts` : '/src/index.ts';
      // The compiled name of a TypeScript block: `./resources.js` is the block `resources.ts`.
      const sibling = /^\.\/([\w-]+)\.js$/.exec(source)?.[1];
      if (sibling && guideFiles()[`${sibling}.ts`]) return `/guide/${sibling}.ts`;
      return undefined;
    },
  };
}

export default {
  files: ['src/**/*.browser.test.ts', 'test/**/*.browser.test.ts'],
  rootDir: '.',
  nodeResolve: { exportConditions: ['browser'] },
  plugins: [
    firstAppPlugin(),
    guidePlugin(),
    esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' }),
  ],
  middleware: middleware(),
  browsers: [launcher()],
  // One file at a time: the e2e files share the API's state, and every page of the browser shares
  // msw's one service worker.
  concurrency: 1,
  browserStartTimeout: 60_000,
  staticLogging: !process.stdout.isTTY,
  testFramework: { config: { timeout: 5000 } },
  reporters: [defaultReporter(), countsReporter({ engine })],
};
