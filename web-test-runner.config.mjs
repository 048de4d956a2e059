import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter } from '@web/test-runner';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { findBrowser, chromiumArgs } from './scripts/find-browser.mjs';
import { countsReporter } from './scripts/counts-reporter.mjs';
import { middleware } from './server/middleware.mjs';

const executablePath = findBrowser();
if (!executablePath) {
  console.error(
    'No Chrome or Chromium found: run `node scripts/ensure-browser.mjs` or set CHROME_PATH.',
  );
  process.exit(1);
}

export default {
  files: ['src/**/*.browser.test.ts', 'test/**/*.browser.test.ts'],
  rootDir: '.',
  nodeResolve: { exportConditions: ['browser'] },
  plugins: [esbuildPlugin({ ts: true, tsconfig: './tsconfig.json', target: 'es2022' })],
  middleware: middleware(),
  browsers: [
    // --expose-gc: the leak test (test/reliability/leaks.browser.test.ts) forces a collection before
    // it reads the heap, so its growth figures are not the collector's timing.
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        args: [...chromiumArgs, '--js-flags=--expose-gc'],
      },
    }),
  ],
  concurrency: 1,
  staticLogging: !process.stdout.isTTY,
  testFramework: { config: { timeout: 5000 } },
  reporters: [defaultReporter(), countsReporter()],
};
