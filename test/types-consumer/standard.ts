// The same elements with standard (TC39) decorators: reactive fields are `accessor`s.
import { LitElement, html, isServer, noChange } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { ResourceController, controllerContext, type ControllerLike } from 'resource-elements';
import { Todo, TodoResource } from './resources.js';

@customElement('todo-list')
export class TodoList extends LitElement {
  @property({ type: Number }) accessor userId = 1;

  #todos = new ResourceController(this, TodoResource.getList, () => ({ userId: this.userId }));

  render() {
    return this.#todos.render({
      pending: () => html`<p>Loading…</p>`,
      complete: (todos) =>
        html`<ul>
          ${todos.map((todo) => html`<li>${todo.title}</li>`)}
        </ul>`,
      error: (error) => html`<p>Failed: ${(error as Error).message}</p>`,
    });
  }
}

@customElement('todo-toggle')
export class TodoToggle extends LitElement {
  @consume({ context: controllerContext, subscribe: true })
  accessor controller: ControllerLike | undefined;

  @property({ attribute: false }) accessor todo: Todo | undefined;

  render() {
    const done = this.todo?.completed ?? false;
    // `?checked` for server rendering, `.checked` once clicked: see "Server rendering".
    return html`<input
      type="checkbox"
      ?checked=${done}
      .checked=${isServer ? noChange : done}
      @change=${this.toggle}
    />`;
  }

  toggle = async () => {
    const { id, completed } = this.todo!;
    await this.controller?.fetch(TodoResource.partialUpdate, { id }, { completed: !completed });
    await this.controller?.fetch(TodoResource.getList.push, { title: 'Buy milk', userId: 1 });
    await this.controller?.fetch(TodoResource.delete, { id });
  };
}
