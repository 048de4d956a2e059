// Leaks: 1,000 bound elements connected and disconnected 20 times under one provider. Afterwards
// the Controller holds no subscription, poll timer or store listener (every engine), and the JS
// heap does not grow with the number of rounds (where the engine lets a page read its heap:
// Chromium's performance.memory; Firefox and WebKit have no such API, and say so).
import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { useHandlers } from '../browser/msw.js';
import { Controller } from '../../src/core/controller/controller.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import { defineReader, reader, until } from '../../src/lit/test-utils/reader.js';
import { failOnUnhandledRejection, mount, sleep } from './browser-support.js';
import { engine, skipInThisEngine } from '../browser/engine.js';

class Gauge extends Entity {
  id = '';
  value = 0;
  pk() {
    return this.id;
  }
  static key = 'RelGauge';
}

/** Polled, so every connected reader also holds a share of a poll timer. */
const getGauge = new RestEndpoint({
  path: '/mock/reliability/gauges/:id',
  schema: Gauge,
  pollFrequency: 60_000,
});
const gaugeTag = defineReader(getGauge, (gauge) => `${gauge.id}=${gauge.value}`);

const ELEMENTS = 1_000;
const ROUNDS = 20;
const KEYS = 10;

interface Memory {
  usedJSHeapSize: number;
}

/** The used JS heap in bytes after a collection when one can be forced; undefined if unknown. */
async function usedHeap(): Promise<number | undefined> {
  const gc = (window as unknown as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  } else {
    // Without --expose-gc, give the collector idle time to run on its own.
    await sleep(50);
  }
  return (performance as unknown as { memory?: Memory }).memory?.usedJSHeapSize;
}

/** Least-squares slope of y over x. */
function slope(values: readonly number[]): number {
  const n = values.length;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((sum, y) => sum + y, 0) / n;
  let num = 0;
  let den = 0;
  values.forEach((y, x) => {
    num += (x - meanX) * (y - meanY);
    den += (x - meanX) ** 2;
  });
  return num / den;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;

/** The heap after each round of the first test, for the second; empty where it cannot be read. */
const heaps: number[] = [];

describe('reliability (browser): leaks', () => {
  failOnUnhandledRejection();

  it(`${ELEMENTS} bound elements connected and disconnected ${ROUNDS} times leave nothing behind`, async function () {
    this.timeout(60_000);
    let requests = 0;
    await useHandlers(
      http.get('/mock/reliability/gauges/:id', ({ params }) => {
        requests++;
        return HttpResponse.json({ id: params.id, value: Number(String(params.id).slice(1)) });
      }),
    );
    const controller = new Controller({ gcTime: Infinity });
    const provider = await mount(controller);
    const baseline = controller.stats();
    expect(baseline).to.deep.equal({ subscriptions: 0, timers: 0, listeners: 0, inFlight: 0 });

    heaps.length = 0;
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      const views = Array.from({ length: ELEMENTS }, (_, i) =>
        reader(gaugeTag, { id: `g${i % KEYS}` }),
      );
      provider.append(...views);
      await Promise.all(views.map((view) => view.updateComplete));
      await until(() => expect(controller.stats().inFlight).to.equal(0), 5_000);
      await Promise.all(views.map((view) => view.updateComplete));
      expect(controller.stats(), `round ${round}, connected`).to.deep.equal({
        subscriptions: ELEMENTS,
        timers: KEYS,
        listeners: ELEMENTS,
        inFlight: 0,
      });
      expect(views.every((view) => view.reader.status === 'complete')).to.equal(true);
      for (const view of views) view.remove();
      expect(controller.stats(), `round ${round}, disconnected`).to.deep.equal(baseline);
      views.length = 0;
      const heap = await usedHeap();
      if (heap !== undefined) heaps.push(heap);
    }
    const elapsed = performance.now() - started;

    expect(controller.stats()).to.deep.equal(baseline);
    expect(provider.childElementCount).to.equal(0);
    // One request per key in the first round; later rounds read the store.
    expect(requests).to.equal(KEYS);

    console.log(
      `leaks in ${engine()}: ${JSON.stringify({ elapsedMs: Math.round(elapsed), heapMB: heaps.map(mb) })}`,
    );
  });

  it(`the JS heap does not grow over the ${ROUNDS} rounds`, function () {
    if (!('memory' in performance)) {
      skipInThisEngine(this, 'performance.memory to read the JS heap');
    }
    expect(heaps.length, 'heap readings: one per round of the test above').to.equal(ROUNDS);
    const gcForced = typeof (window as unknown as { gc?: unknown }).gc === 'function';
    console.log(
      `leaks in ${engine()}: ${JSON.stringify({ gcForced, slopeKBPerRound: Math.round(slope(heaps.slice(2)) / 1024) })}`,
    );
    if (gcForced) {
      // A leak of even 100 bytes per element would add about 100 KB per round (1.7 MB over the
      // measured rounds). Measured after a warm-up: the first rounds fill caches, compile code.
      const growth = heaps[ROUNDS - 1]! - heaps[2]!;
      expect(mb(growth), 'heap growth over the last rounds, MB').to.be.lessThan(1);
      expect(slope(heaps.slice(2)), 'heap growth per round, bytes').to.be.lessThan(50 * 1024);
    } else {
      // No forced collection: only the troughs (after the collector ran) are comparable.
      const trough = (part: number[]) => Math.min(...part);
      const rise = trough(heaps.slice(11)) - trough(heaps.slice(2, 11));
      expect(mb(rise), 'rise of the heap troughs, MB').to.be.lessThan(8);
    }
  });
});
