// Type tests: compiled by `tsc` in `npm test`; a regression is a compile error.
import type { LitElement } from 'lit';
import { Signal } from 'signal-polyfill';
import type { Controller, EndpointLike } from '../core/index.js';
import { Entity } from '../core/schema/entity.js';
import type { Equal, Expect } from '../core/test-utils/type-assert.js';
import { entitySignal, readSignal } from './index.js';
import type { ReadState } from './index.js';

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'Todo';
}
declare const host: LitElement;
declare const controller: Controller;
declare const get: EndpointLike<[{ id: string }], Todo>;
declare const list: EndpointLike<[{ userId?: number }], Todo[]>;

const id = new Signal.State('1');
export const fromValue = readSignal(controller, get, { id: '1' });
export const fromFunction = readSignal(host, get, () => ({ id: id.get() }));
export const fromSignal = readSignal(
  host,
  list,
  new Signal.State<{ userId?: number } | null>(null),
);
export const entity = entitySignal(host, Todo, () => ({ id: id.get() }));

// @ts-expect-error the args of `get` are `{ id: string }`
readSignal(controller, get, { id: 1 });
// @ts-expect-error a function must give the endpoint's args
readSignal(host, get, () => ({ userId: 1 }));
// @ts-expect-error an entity class, not an endpoint
entitySignal(host, get, { id: '1' });
// @ts-expect-error not an element with controllers, nor a Controller
readSignal(document.body, get, { id: '1' });

export type Cases = [
  Expect<Equal<ReturnType<typeof fromValue.get>, ReadState<Todo>>>,
  Expect<Equal<ReturnType<typeof fromFunction.get>['value'], Todo | undefined>>,
  Expect<Equal<ReturnType<typeof fromSignal.get>['value'], Todo[] | undefined>>,
  Expect<Equal<ReturnType<typeof entity.get>, Todo | undefined>>,
  Expect<Equal<ReturnType<typeof fromValue.refetch>, Promise<void>>>,
];
