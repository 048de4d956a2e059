// Proves that msw's worker is served from the root and intercepts requests, in each browser engine.
import { expect } from '@open-wc/testing';
import { http, HttpResponse } from 'msw';
import { useHandlers } from './browser/msw.js';

describe('msw in the browser rig', () => {
  it('intercepts a request under /mock/', async () => {
    await useHandlers(http.get('/mock/ping', () => HttpResponse.json({ pong: true })));
    const response = await fetch('/mock/ping');
    expect(await response.json()).to.deep.equal({ pong: true });
  });

  it('is served from the site root, so its scope covers the test page', async () => {
    const response = await fetch('/mockServiceWorker.js');
    expect(response.status).to.equal(200);
    expect(await response.text()).to.contain('INTEGRITY_CHECKSUM');
  });
});
