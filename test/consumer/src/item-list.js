// A list element bound with ResourceController, and a button that pushes a new item through the
// Controller consumed from <resource-provider>: the guide's ResourceController and Mutations
// sections without decorators.
import { LitElement, html } from 'lit';
import { ContextConsumer } from '@lit/context';
import { ResourceController, controllerContext } from 'resource-elements';
import { ItemResource } from './resources.js';

class ItemList extends LitElement {
  #items = new ResourceController(this, ItemResource.getList, () => ({}));
  #controller = new ContextConsumer(this, { context: controllerContext, subscribe: true });

  async add() {
    await this.#controller.value?.fetch(ItemResource.getList.push, { name: 'Gamma' });
  }

  render() {
    return this.#items.render({
      pending: () => html`<p>Loading…</p>`,
      complete: (items) =>
        html`<ul>
            ${items.map((item) => html`<li>${item.name}</li>`)}
          </ul>
          <button @click=${() => this.add()}>Add Gamma</button>`,
      error: (error) => html`<p class="error">Failed: ${error.message}</p>`,
    });
  }
}
customElements.define('item-list', ItemList);
