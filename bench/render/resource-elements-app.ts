/**
 * The list of rows with resource-elements, written as its docs show: one `ResourceController` on
 * the list's `getList`, each row an element bound to one entity (the entity instance the list
 * hands it; unchanged entities keep their identity, so their rows do not update), mutations
 * through the Controller consumed from `<resource-provider>`.
 */
import { LitElement, html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ContextConsumer } from '@lit/context';
import {
  Controller,
  Entity,
  ResourceController,
  controllerContext,
  createResource,
} from 'resource-elements';
import type { BenchApp } from './app.js';
import { rowElementId } from './app.js';
import { ORIGIN } from './fake-server.js';
import { noteListRender, noteRowRender } from './instrument.js';

class Item extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'BenchItem';
}

const ItemResource = createResource({ urlPrefix: ORIGIN, path: '/items/:id', schema: Item });

class ReRow extends LitElement {
  static properties = { item: { attribute: false } };
  declare item: Item | undefined;

  render() {
    const item = this.item!;
    return html`<span class="title">${item.title}</span>
      <input type="checkbox" .checked=${item.done} />`;
  }

  updated() {
    noteRowRender(this.item!.id);
  }
}

class ReList extends LitElement {
  readonly #items = new ResourceController(this, ItemResource.getList);
  readonly #controller = new ContextConsumer(this, {
    context: controllerContext,
    subscribe: true,
  });

  get controller() {
    return this.#controller.value!;
  }

  render() {
    return this.#items.render({
      pending: () => html`<p>Loading…</p>`,
      complete: (items) =>
        html`${repeat(
          items,
          (item) => item.id,
          (item) => html`<re-row id=${rowElementId(item.id)} .item=${item}></re-row>`,
        )}`,
      error: (error) => html`<p>${String(error)}</p>`,
    });
  }

  updated() {
    noteListRender();
  }
}

export function resourceElementsApp(): BenchApp {
  if (!customElements.get('re-row')) {
    customElements.define('re-row', ReRow);
    customElements.define('re-list', ReList);
  }
  let list: ReList;
  return {
    mount(root) {
      const provider = document.createElement('resource-provider');
      provider.controller = new Controller();
      list = document.createElement('re-list') as ReList;
      provider.append(list);
      root.append(provider);
      return list;
    },
    update: (id, title) => list.controller.fetch(ItemResource.partialUpdate, { id }, { title }),
    create: (title) => list.controller.fetch(ItemResource.getList.push, {}, { title, done: false }),
    remove: (id) => list.controller.fetch(ItemResource.delete, { id }),
  };
}
