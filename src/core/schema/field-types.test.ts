// Field types: `static schema = { created: Date }` reads ISO text as a Date, a class with a static
// fromJSON or a function converts any field; the store keeps the JSON value, so every state
// round trip (getState, dehydrate, persistence, tab sync) gives the same Date back.
import { describe, it } from 'node:test';
// What `import 'resource-elements/fields'` loads.
import '../field-types.js';
import { strict as assert } from 'node:assert';
import { Entity } from './entity.js';
import { normalize, NormalizeError } from '../normalize/normalize.js';
import { MemoCache } from '../normalize/memo-cache.js';
import { Controller } from '../controller/controller.js';
import { createResource } from '../rest/create-resource.js';
import type { Denormalize } from './types.js';

class Money {
  constructor(
    readonly cents: number,
    readonly currency: string,
  ) {}
  static fromJSON(text: string) {
    const [amount, currency] = text.split(' ');
    return new Money(Math.round(Number(amount) * 100), currency!);
  }
  toJSON() {
    return `${(this.cents / 100).toFixed(2)} ${this.currency}`;
  }
}

class Order extends Entity {
  id = '';
  created = new Date(0);
  shipped: Date | null = null;
  total = new Money(0, 'EUR');
  tags: string[] = [];
  pk() {
    return this.id;
  }
  static override key = 'Order';
  static override schema = {
    created: Date,
    shipped: Date,
    total: Money,
    tags: (text: string) => text.split(','),
  };
}

const ORDER = {
  id: '1',
  created: '2026-11-28T14:08:27.000Z',
  shipped: null,
  total: '12.50 EUR',
  tags: 'gift,fragile',
};

describe('field types', () => {
  it('convert on read: Date, fromJSON, a function; null stays null', () => {
    const { result, entities } = normalize(Order, ORDER);
    const order = new MemoCache().denormalize(Order, result, entities) as Order;
    assert.ok(order.created instanceof Date);
    assert.equal(order.created.toISOString(), ORDER.created);
    assert.equal(order.shipped, null);
    assert.ok(order.total instanceof Money);
    assert.equal(order.total.cents, 1250);
    assert.deepEqual(order.tags, ['gift', 'fragile']);
    // The store keeps what the server sent.
    assert.deepEqual(entities.Order!['1'], ORDER);
  });

  it('give the same objects while the entity is unchanged', () => {
    const memo = new MemoCache();
    const { result, entities } = normalize(Order, ORDER);
    const first = memo.denormalize(Order, result, entities) as Order;
    const again = memo.denormalize(Order, result, entities) as Order;
    assert.equal(again.created, first.created);
  });

  it('store a value written in code as its JSON (an optimistic update, a push)', () => {
    const { entities } = normalize(Order, {
      ...ORDER,
      created: new Date(ORDER.created),
      total: new Money(99, 'USD'),
    });
    assert.deepEqual(entities.Order!['1'], { ...ORDER, total: '0.99 USD' });
  });

  it('refuse text that is no date, naming the entity field', () => {
    assert.throws(
      () => normalize(Order, { ...ORDER, created: 'yesterday' }),
      (error: unknown) =>
        error instanceof NormalizeError &&
        /Expected a date, got "yesterday"/.test(error.message) &&
        /created/.test(error.message),
    );
  });

  it('round-trip through the state as JSON', () => {
    const OrderResource = createResource({ path: '/orders/:id', schema: Order });
    const controller = new Controller();
    controller.setResponse(OrderResource.get, { id: '1' }, ORDER);
    const restored = new Controller({
      initialState: JSON.parse(JSON.stringify(controller.getState())),
    });
    const order = restored.getResponse(OrderResource.get, { id: '1' }).data!;
    assert.ok(order.created instanceof Date);
    assert.equal(order.created.getTime(), Date.parse(ORDER.created));
    assert.equal(order.total.cents, 1250);
  });

  it('are said to be unread in development until resource-elements/fields loads', async () => {
    // A fresh copy of steps.ts, as an app that never imported the fields entry has it.
    const steps = (await import(`./steps.js?unread=${Date.now()}`)) as typeof import('./steps.js');
    const warned: unknown[] = [];
    const warn = console.warn;
    console.warn = (message: unknown) => void warned.push(message);
    try {
      assert.equal(steps.stepsOf(Date), undefined, 'the value is kept as it is');
      steps.stepsOf(Date);
    } finally {
      console.warn = warn;
    }
    assert.equal(warned.length, 1, 'said once per type');
    assert.match(String(warned[0]), /Date .*import 'resource-elements\/fields'/);
  });

  it('are typed as what they read as', () => {
    type Read = Denormalize<typeof Order>;
    const check = (order: Read) => [order.created.getTime(), order.total.cents, order.tags.length];
    void check;
    // Denormalize of the field types themselves:
    const date: Denormalize<DateConstructor> = new Date();
    const money: Denormalize<typeof Money> = new Money(1, 'EUR');
    const split: Denormalize<(text: string) => string[]> = ['a'];
    assert.ok(date && money && split);
  });
});
