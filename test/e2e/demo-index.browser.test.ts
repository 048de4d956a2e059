// The demo's own page, demo/index.html (what `npm start` serves at /demo/), loaded whole in an
// iframe of a fixed size: its layout as a person meets it, with the provider's attributes, the
// offline banner and the header's offline switch.
import { expect } from '@open-wc/testing';
import { resetApi, until } from './demo-page.js';

const FLAG = 'resource-elements-demo:offline';
const frames: HTMLIFrameElement[] = [];

async function openIndex(): Promise<HTMLIFrameElement> {
  // The switch remembers "offline" per tab in session storage, which the iframe shares.
  sessionStorage.removeItem(FLAG);
  const frame = document.createElement('iframe');
  frame.style.cssText = 'width: 1000px; height: 600px; border: 0';
  frames.push(frame);
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  frame.src = '/demo/index.html';
  document.body.append(frame);
  await loaded;
  await until(() => expect(switchButton(frame).textContent).to.contain('Work offline'), 5000);
  return frame;
}

function offlineSwitch(frame: HTMLIFrameElement): HTMLElement {
  const element = frame.contentDocument!.querySelector<HTMLElement>('offline-switch');
  if (!element) throw new Error('no <offline-switch> on the page');
  return element;
}

function switchButton(frame: HTMLIFrameElement): HTMLButtonElement {
  const button = offlineSwitch(frame).shadowRoot?.querySelector('button');
  if (!button) throw new Error('<offline-switch> has not rendered its button');
  return button;
}

function banner(frame: HTMLIFrameElement): HTMLElement {
  return frame.contentDocument!.querySelector<HTMLElement>('.offline')!;
}

/** Scrolls the page and lets it lay out and paint at that position. */
async function scrollTo(frame: HTMLIFrameElement, y: number): Promise<void> {
  const win = frame.contentWindow!;
  win.scrollTo(0, y);
  await new Promise((resolve) => win.requestAnimationFrame(() => resolve(undefined)));
  expect(win.scrollY).to.equal(y, 'the page is long enough to scroll that far');
}

/** An element of the frame as text, `tag.class`: chai must not inspect another window's nodes. */
function named(element: Element | null): string {
  if (!element) return 'nothing';
  return [element.localName, ...element.classList].join('.');
}

/**
 * What a click at the middle of the switch's button reaches: the element the document's hit test
 * finds there, and, when that is the switch, the element hit inside its shadow root.
 */
function hitAtSwitch(frame: HTMLIFrameElement): { top: Element | null; inside: Element | null } {
  const rect = switchButton(frame).getBoundingClientRect();
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const top = frame.contentDocument!.elementFromPoint(x, y);
  const host = offlineSwitch(frame);
  return { top, inside: top === host ? host.shadowRoot!.elementFromPoint(x, y) : null };
}

describe('demo page (demo/index.html): the offline banner and switch', function () {
  this.timeout(15_000);
  beforeEach(resetApi);
  afterEach(() => {
    frames.splice(0).forEach((frame) => frame.remove());
    sessionStorage.removeItem(FLAG);
  });

  it('offline, at every scroll (60 px too) that leaves the "Go online" switch in view, a click there reaches it; the banner stays in view', async () => {
    const frame = await openIndex();
    switchButton(frame).click();
    await until(() => expect(switchButton(frame).textContent).to.contain('Go online'));
    await until(() => expect(getComputedStyle(banner(frame)).display).to.not.equal('none'));

    const bannerInView = (y: number) => {
      const shown = banner(frame).getBoundingClientRect();
      expect(shown.height).to.be.greaterThan(0);
      // Half a pixel either way: engines place a sticky box at fractions of a pixel.
      expect(shown.top).to.be.at.least(-0.5, `at ${y} px the banner is in view`);
      expect(shown.bottom).to.be.at.most(frame.contentWindow!.innerHeight + 0.5);
    };
    // Scrolled 10 px at a time until the middle of the switch leaves the window at the top.
    let lastInView = -1;
    for (let y = 0; y <= 300; y += 10) {
      await scrollTo(frame, y);
      const rect = switchButton(frame).getBoundingClientRect();
      if (rect.top + rect.height / 2 < 0) break;
      const { top, inside } = hitAtSwitch(frame);
      expect(named(top)).to.equal('offline-switch', `at ${y} px the click lands on the switch`);
      expect(inside === switchButton(frame)).to.equal(true, `at ${y} px, on its button`);
      bannerInView(y);
      lastInView = y;
    }
    expect(lastInView).to.be.at.least(0, 'the switch is in view at the top of the page');
    await scrollTo(frame, 400);
    bannerInView(400);

    // The click a person makes: the page goes online and the banner leaves.
    await scrollTo(frame, 0);
    (hitAtSwitch(frame).inside as HTMLElement).click();
    await until(() => expect(switchButton(frame).textContent).to.contain('Work offline'));
    await until(() => expect(getComputedStyle(banner(frame)).display).to.equal('none'));
  });
});
