// The engine a test says it skips in must be the engine it runs in: engine() read off real user
// agents of the three engines, and of the page itself.
import { expect } from '@open-wc/testing';
import { engine } from './engine.js';

const userAgents = {
  chromium:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0',
  webkit:
    'Mozilla/5.0 (X11; Ubuntu; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
  safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
};

describe('the engine a browser test runs in', () => {
  it('is read off the user agents of Chromium, Firefox, WebKitGTK and Safari', () => {
    expect(engine(userAgents.chromium)).to.equal('chromium');
    expect(engine(userAgents.firefox)).to.equal('firefox');
    expect(engine(userAgents.webkit)).to.equal('webkit');
    expect(engine(userAgents.safari)).to.equal('webkit');
  });

  it("is this page's engine, which has that engine's own APIs", () => {
    console.log(`engine: ${engine()}; user agent: ${navigator.userAgent}`);
    // Each engine's own marker, not read off the user agent: Chromium's window.chrome, Firefox's
    // window.mozInnerScreenX, and WebKit's navigator.vendor (Apple's, also in WebKitGTK).
    const markers = {
      chromium: 'chrome' in window && navigator.vendor === 'Google Inc.',
      firefox: 'mozInnerScreenX' in window,
      webkit: navigator.vendor === 'Apple Computer, Inc.' && !('chrome' in window),
    };
    expect(markers[engine()], `the marker of ${engine()}`).to.equal(true);
  });
});
