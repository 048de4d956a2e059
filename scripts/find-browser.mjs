// Finds the browser engines the browser tests run in: Chromium (or Chrome), Firefox, and WebKit
// (WebKitGTK's WebKitWebDriver, shown on a virtual display by xvfb-run). Each engine is looked up
// through its environment variable first, then the usual install locations, then the usual command
// names on PATH. A finder returns undefined when the engine is not there.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(names, env) {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const file = join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
}

/** An executable from `variable`, else the first of `files`, else the first of `names` on PATH. */
function find(env, variable, files, names) {
  if (env[variable]) return isExecutable(env[variable]) ? env[variable] : undefined;
  return files.find(isExecutable) ?? onPath(names, env);
}

/** Chrome or Chromium: CHROME_PATH, /usr/bin/chromium, google-chrome… */
export function findBrowser(env = process.env) {
  return find(
    env,
    'CHROME_PATH',
    ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'],
    ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'],
  );
}

/** Firefox (Debian's firefox-esr, or firefox): FIREFOX_PATH first. Driven over WebDriver BiDi. */
export function findFirefox(env = process.env) {
  return find(
    env,
    'FIREFOX_PATH',
    ['/usr/bin/firefox-esr', '/usr/bin/firefox'],
    ['firefox-esr', 'firefox'],
  );
}

/**
 * WebKitGTK's WebDriver (WEBKIT_DRIVER_PATH first), which starts MiniBrowser. MiniBrowser has no
 * headless mode, so WebKit also needs xvfb-run (XVFB_RUN_PATH first) to give it a display.
 */
export function findWebKit(env = process.env) {
  const driver = find(env, 'WEBKIT_DRIVER_PATH', ['/usr/bin/WebKitWebDriver'], ['WebKitWebDriver']);
  const xvfbRun = find(env, 'XVFB_RUN_PATH', ['/usr/bin/xvfb-run'], ['xvfb-run']);
  return driver && xvfbRun ? { driver, xvfbRun } : undefined;
}

/** The first line a command prints, or undefined if it cannot be run. */
function firstLine(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 10_000 });
  const line = result.status === 0 ? result.stdout.split('\n')[0].trim() : '';
  return line || undefined;
}

/** Every engine, in the order the tests run in them. */
export const engines = {
  chromium: {
    find: findBrowser,
    variable: 'CHROME_PATH',
    packages: ['chromium'],
    elsewhere: 'CHROME_PATH to Chrome or Chromium',
    describe: (found) => found,
    // "Chromium 156.0.8078.79 built on Debian…": the name and version.
    version: (found) => firstLine(found, ['--version'])?.replace(/ built on .*$/, ''),
  },
  firefox: {
    find: findFirefox,
    variable: 'FIREFOX_PATH',
    packages: ['firefox-esr'],
    elsewhere: 'FIREFOX_PATH to Firefox',
    describe: (found) => found,
    // "Mozilla Firefox 153.7.0esr".
    version: (found) => firstLine(found, ['--version'])?.replace(/^Mozilla /, ''),
  },
  webkit: {
    find: findWebKit,
    variable: 'WEBKIT_DRIVER_PATH',
    packages: ['webkit2gtk-driver', 'xvfb', 'xauth'],
    elsewhere: "WEBKIT_DRIVER_PATH to WebKitGTK's WebKitWebDriver and XVFB_RUN_PATH to xvfb-run",
    describe: (found) => `${found.driver} under ${found.xvfbRun}`,
    // WebKitWebDriver has no --version; Debian's package says which WebKitGTK it drives.
    version: () => {
      const version = firstLine('dpkg-query', ['-W', '-f=${Version}\\n', 'webkit2gtk-driver']);
      return version && `WebKitGTK ${version}`;
    },
  },
};

/**
 * The one line that says which engines are missing, how to install them (Debian's packages, or
 * the variables to point at them elsewhere) and which engines run without them. `ci`: every engine
 * is required, so none run.
 */
export function missingEnginesLine(missing, running, { ci = false } = {}) {
  const packages = missing.flatMap((name) => engines[name].packages).join(' ');
  const elsewhere = missing.map((name) => engines[name].elsewhere).join(', ');
  const how = `Debian/Ubuntu: \`sudo apt-get install ${packages}\`; elsewhere set ${elsewhere}`;
  let outcome;
  if (ci) outcome = 'CI (CI=true) needs every engine, so none ran';
  else if (running.length === 0) outcome = 'no engine to run the browser tests in';
  else outcome = `running the browser tests in ${running.join(', ')} only`;
  return `browser: ${missing.join(', ')} not found (${how}); ${outcome}.`;
}

/**
 * The engines to test in: all of them, or those named in BROWSERS (comma- or space-separated, e.g.
 * `BROWSERS=chromium`). Throws on a name it does not know.
 */
export function selectedEngines(env = process.env) {
  const names = (env.BROWSERS ?? '')
    .split(/[\s,]+/)
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 0) return Object.keys(engines);
  const unknown = names.filter((name) => !(name in engines));
  if (unknown.length > 0) {
    throw new Error(
      `BROWSERS names ${unknown.join(', ')}; known engines: ${Object.keys(engines).join(', ')}.`,
    );
  }
  return Object.keys(engines).filter((name) => names.includes(name));
}

/** Launch flags that keep Chromium quiet on a machine whose only network is loopback. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
