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
import { docsPlugins } from './scripts/docs-serve.mjs';

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

export default {
  files: ['src/**/*.browser.test.ts', 'test/**/*.browser.test.ts'],
  rootDir: '.',
  nodeResolve: { exportConditions: ['browser'] },
  plugins: [
    ...docsPlugins(),
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
