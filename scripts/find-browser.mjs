// Finds a Chrome or Chromium executable: CHROME_PATH first, then the usual install locations,
// then the usual command names on PATH. Returns undefined when there is none.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const commands = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findBrowser(env = process.env) {
  if (env.CHROME_PATH) return isExecutable(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  for (const file of candidates) if (isExecutable(file)) return file;
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of commands) {
      const file = join(dir, name);
      if (isExecutable(file)) return file;
    }
  }
  return undefined;
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
