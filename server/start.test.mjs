// `npm start` as a newcomer meets it: the printed URL answers, `/` leads to the demo, only this
// machine can connect, and a busy port is one clear line with a non-zero exit.
import { describe, it, before, after } from 'node:test';
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { connect, createServer as createNetServer } from 'node:net';
import { networkInterfaces } from 'node:os';
import { settingsFrom, startDemo } from './start.mjs';

/** Runs `node server/start.mjs` until it prints its URL or exits. */
function runStart(env) {
  const child = spawn(process.execPath, ['server/start.mjs'], {
    env: { ...process.env, API_LATENCY: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((done) => child.on('exit', (code) => done(code)));
  const printed = new Promise((done, fail) => {
    child.stdout.on('data', () => {
      const url = /http:\/\/\S+/.exec(stdout)?.[0];
      if (url) done(url);
    });
    exited.then((code) => fail(new Error(`start exited with ${code}: ${stdout}${stderr}`)));
  });
  printed.catch(() => {}); // awaited only by callers that expect a URL
  return { child, printed, exited, output: () => ({ stdout, stderr }) };
}

function refused(host, port) {
  return new Promise((done) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once('connect', () => {
      socket.destroy();
      done(false);
    });
    socket.once('timeout', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(true));
  });
}

/** A port nothing listens on just now. */
function freePort() {
  return new Promise((done, fail) => {
    const probe = createNetServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

/**
 * What a script that waits for the port does: tries to connect every few ms until the port
 * accepts, then at once sends `GET path` on that connection. Resolves with the status line of the
 * answer, or with `no answer within N ms`.
 */
function requestAsSoonAsConnectable(port, path, { answerWithin = 5000, tryFor = 20000 } = {}) {
  const deadline = Date.now() + tryFor;
  return new Promise((done, fail) => {
    const attempt = () => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) fail(new Error(`port ${port} never accepted a connection`));
        else setTimeout(attempt, 2);
      });
      socket.once('connect', () => {
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
        );
        let received = '';
        const silent = setTimeout(() => {
          socket.destroy();
          done(`no answer within ${answerWithin} ms`);
        }, answerWithin);
        socket.on('data', (chunk) => {
          received += chunk;
          if (received.includes('\r\n')) {
            clearTimeout(silent);
            socket.destroy();
            done(received.slice(0, received.indexOf('\r\n')));
          }
        });
      });
    };
    attempt();
  });
}

describe('npm start (server/start.mjs)', () => {
  let demo;
  let base;

  before(async () => {
    demo = await startDemo({ port: 0, latency: 0 });
    base = `http://127.0.0.1:${demo.http.address().port}`;
  });

  after(async () => {
    await demo?.stop();
  });

  it('listens on 127.0.0.1 only', async () => {
    assert.equal(demo.http.address().address, '127.0.0.1');
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4');
    if (external) {
      assert.ok(
        await refused(external.address, demo.http.address().port),
        `a connection to ${external.address} is refused`,
      );
    }
  });

  it('/ redirects to the demo, which answers 200 with its page', async () => {
    const root = await fetch(`${base}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(new URL(root.headers.get('location'), base).pathname, '/demo/');
    const page = await fetch(`${base}/`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script[^>]+main\.ts/);
    assert.equal(demo.url, `${base}/demo/`);
  });

  it('serves the demo API next to it', async () => {
    const todos = await fetch(`${base}/api/todos`);
    assert.equal(todos.status, 200);
    assert.ok(Array.isArray(await todos.json()));
  });

  it('prints a URL that answers 200, and a second start on its port says so in one line and exits 1', async () => {
    const first = runStart({ PORT: '0' });
    try {
      const url = await first.printed;
      assert.equal((await fetch(url)).status, 200);
      const { port } = new URL(url);
      const second = runStart({ PORT: port });
      const code = await second.exited;
      const { stdout, stderr } = second.output();
      assert.equal(code, 1);
      assert.equal(stdout, '');
      const lines = stderr.trim().split('\n');
      assert.equal(lines.length, 1, stderr);
      assert.match(lines[0], new RegExp(`Port ${port} .*in use.*PORT=`));
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  it('answers a request sent the moment its port accepts connections', async () => {
    const port = await freePort();
    const starting = startDemo({ port, latency: 0 });
    try {
      const status = await requestAsSoonAsConnectable(port, '/api/todos');
      assert.equal(status, 'HTTP/1.1 200 OK');
    } finally {
      await (await starting).stop();
    }
  });

  it('names the variable when PORT or API_LATENCY is not a number', () => {
    assert.throws(() => settingsFrom({ PORT: 'eighty' }), /PORT=eighty/);
    assert.throws(() => settingsFrom({ API_LATENCY: '-5' }), /API_LATENCY=-5/);
    assert.deepEqual(settingsFrom({}), { port: 8000, host: '127.0.0.1', latency: 300 });
    assert.equal(settingsFrom({ HOST: '0.0.0.0' }).host, '0.0.0.0');
  });
});
