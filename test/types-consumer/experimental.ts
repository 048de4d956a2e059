// The guide's ResourceController and Mutations examples with `experimentalDecorators`.
import { LitElement, html, isServer, noChange } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { consume } from '@lit/context';
import {
  Controller,
  ResourceController,
  controllerContext,
  type ControllerLike,
} from 'resource-elements';
import { Todo, TodoResource } from './resources.js';

@customElement('todo-list')
export class TodoList extends LitElement {
  @property({ type: Number }) userId = 1;

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
  controller?: ControllerLike;

  @property({ attribute: false }) todo?: Todo;

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

export async function outsideElements(): Promise<boolean> {
  const controller = new Controller();
  const todo: Todo = await controller.fetch(TodoResource.get, { id: '1' });
  return controller.getResponse(TodoResource.get, { id: '1' }).data === todo;
}
