// `npm start`: the demo and its REST API on http://127.0.0.1:PORT/ (loopback only).
//
// We listen ourselves and hand requests to Web Dev Server in middleware mode: its own listen()
// turns the host 127.0.0.1 into "every interface", which would put the editable demo API (and
// /api/__reset) on the network. HOST=0.0.0.0 exposes the demo on purpose.
//
//   PORT         the port (default 8000)
//   HOST         the address to listen on (default 127.0.0.1)
//   API_LATENCY  ms the demo API waits before each answer (default 300), to show pending states
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDevServer } from '@web/dev-server';

/** The settings from the environment; a bad value is an error naming the variable. */
export function settingsFrom(env) {
  const number = (name, fallback) => {
    const text = env[name];
    if (text === undefined || text === '') return fallback;
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(
        `${name}=${text} is not a whole number of ${name === 'PORT' ? 'a port' : 'ms'}.`,
      );
    }
    return value;
  };
  return {
    port: number('PORT', 8000),
    host: env.HOST || '127.0.0.1',
    latency: number('API_LATENCY', 300),
  };
}

/** A URL for `host` (IPv6 in brackets; a wildcard address shown as 127.0.0.1). */
function urlHost(host) {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Listens on `host:port` and serves the demo (web-dev-server.config.mjs). Resolves with the HTTP
 * server, the Web Dev Server and the demo's URL; rejects with an Error whose message is one line
 * when the port is taken or the address cannot be used.
 *
 * The Web Dev Server starts first and its handler is attached before the port is opened: a
 * request that arrives the moment the port accepts connections (a script that waits for the
 * port, then asks) is answered, not left without a handler. When listening fails, the Web Dev
 * Server is stopped again.
 */
export async function startDemo({ port = 8000, host = '127.0.0.1', latency = 300 } = {}) {
  process.env.API_LATENCY = String(latency);
  const dev = await startDevServer({
    // web-dev-server.config.mjs, found in the working directory (the repository's root).
    config: { middlewareMode: true },
    readCliArgs: false,
    autoExitProcess: false,
    logStartMessage: false,
  });
  const http = createServer(dev.koaApp.callback());
  try {
    await new Promise((listening, failed) => {
      http.once('error', (error) => {
        if (error.code === 'EADDRINUSE') {
          failed(
            new Error(
              `Port ${port} on ${host} is already in use: stop what uses it, or pick another with PORT=<port> npm start.`,
            ),
          );
        } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'EACCES') {
          failed(new Error(`Cannot listen on ${host}:${port} (${error.code}): set HOST and PORT.`));
        } else {
          failed(error);
        }
      });
      http.listen(port, host, listening);
    });
  } catch (error) {
    await dev.stop();
    throw error;
  }
  const url = `http://${urlHost(host)}:${http.address().port}/demo/`;
  return {
    http,
    dev,
    url,
    async stop() {
      await dev.stop();
      http.closeAllConnections();
      await new Promise((closed) => http.close(closed));
    },
  };
}

/**
 * The API reference in docs/api/, which the server serves at /docs/api/: built on the first start
 * (`npm run docs`, about 15 s). False, with a line saying why, when it cannot be built.
 */
function apiReference() {
  if (existsSync('docs/api/index.html')) return true;
  console.log('Building the API reference (npm run docs) on this first start...');
  const built = spawnSync(process.execPath, ['scripts/docs.mjs'], { stdio: 'inherit' });
  if (built.status === 0) return true;
  console.log('The API reference could not be built; the demo runs without it.');
  return false;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const settings = settingsFrom(process.env);
    const reference = apiReference();
    const demo = await startDemo(settings);
    console.log(`resource-elements demo: ${demo.url}`);
    console.log(`server-rendered page: ${new URL('/ssr/', demo.url).href}`);
    if (reference) console.log(`API reference: ${new URL('/docs/api/', demo.url).href}`);
    if (settings.host === '127.0.0.1') {
      console.log('(this machine only; HOST=0.0.0.0 npm start exposes it to the network)');
    }
    const stop = () => demo.stop().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (error) {
    console.error(`npm start: ${error.message}`);
    process.exit(1);
  }
}
