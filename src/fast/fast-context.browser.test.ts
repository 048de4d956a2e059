// <resource-provider> answers FAST's own context requests: FAST's Context.request dispatches the
// community protocol's `context-request` event, and asks for later values with `multiple` where
// Lit's protocol says `subscribe`. A FAST element that asks so is answered, and hears a
// Controller assigned to the provider later.
import { expect, fixture, html } from '@open-wc/testing';
import { FASTElement } from '@microsoft/fast-element';
import { Context } from '@microsoft/fast-element/context.js';
import type { UnknownContext } from '@microsoft/fast-element/context.js';
import '../lit/define-provider.js';
import type { ResourceProvider } from '../lit/resource-provider.js';
import { controllerContext } from '../lit/controller-context.js';
import { Controller } from '../core/controller/controller.js';
import type { ControllerLike } from '../core/index.js';

/** A FAST element that asks for the Controller with FAST's API, as a FAST author would. */
class FastAsker extends FASTElement {
  /** Every value the provider answered with, in order. */
  readonly answers: (ControllerLike | undefined)[] = [];

  override connectedCallback(): void {
    super.connectedCallback();
    // The key is the registered symbol <resource-provider> provides under; FAST's types expect
    // its own context objects, whose only part a request uses is the key itself.
    Context.request(
      this,
      controllerContext as unknown as UnknownContext,
      (controller) => this.answers.push(controller as ControllerLike | undefined),
      true,
    );
  }
}
await FastAsker.define({ name: 'fast-asker-test' });

describe("FAST's Context.request with multiple", () => {
  it('is answered by <resource-provider>, and hears a Controller assigned later', async () => {
    const first = new Controller();
    const second = new Controller();
    /** What each request said when the asker sent it. */
    const requests: { multiple?: boolean; subscribe?: boolean }[] = [];
    const provider = document.createElement('resource-provider') as ResourceProvider;
    provider.controller = first;
    const asker = new FastAsker();
    // Read as sent, before any listener (the provider's included) sees the event.
    const dispatch = asker.dispatchEvent.bind(asker);
    asker.dispatchEvent = (event) => {
      const { multiple, subscribe } = event as Event & { multiple?: boolean; subscribe?: boolean };
      if (event.type === 'context-request') requests.push({ multiple, subscribe });
      return dispatch(event);
    };
    provider.append(asker);
    try {
      const host = await fixture<HTMLDivElement>(html`<div></div>`);
      host.append(provider);
      // The request is FAST's: `multiple`, not Lit's `subscribe`.
      expect(requests).to.deep.equal([{ multiple: true, subscribe: undefined }]);
      expect(asker.answers).to.have.length(1);
      expect(asker.answers[0]).to.equal(first);
      // <resource-provider> answers `multiple` as it does `subscribe`: the replacement reaches it.
      provider.controller = second;
      expect(asker.answers, 'the answers after provider.controller was replaced').to.have.length(2);
      expect(asker.answers[1]).to.equal(second);
    } finally {
      first.dispose();
      second.dispose();
    }
  });
});
