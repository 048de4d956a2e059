// Lists follow their filters (issue 46, part 4): with `followFilters`, any committed write of an
// entity re-files it among the stored lists of its Collection, by the rule `move` uses.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from './schema/entity.js';
import { Collection } from './schema/collection.js';
import { UnionSchema } from './schema/union.js';
import { createResource } from './rest/create-resource.js';
import { RestEndpoint } from './rest/rest-endpoint.js';
import { hydrate } from './hydration.js';
import { followFilters } from '../follow/index.js';
import { failOnUnhandledRejection, setup } from './controller/test-utils/harness.js';
import { flush } from './controller/test-utils/fake-fetch.js';
import { UserTodo as Todo } from './controller/test-utils/entities.js';

failOnUnhandledRejection();

/** The same todo under another key, in lists that do not follow: today's behaviour. */
class PlainTodo extends Todo {
  static override key = 'PlainTodo';
}

const options = {
  path: '/todos/:id',
  searchParams: {} as { userId?: number; completed?: boolean; q?: string; page?: number },
  paginationField: 'page',
} as const;
const base = followFilters(createResource({ ...options, schema: Todo }));
const optimistic = base.extend({ partialUpdate: { optimistic: true } });
const plain = createResource({ ...options, schema: PlainTodo });

const TODOS = [
  { id: 1, userId: 1, title: 'Write the spec', completed: false },
  { id: 2, userId: 1, title: 'Review', completed: false },
  { id: 3, userId: 1, title: 'Ship', completed: true },
  { id: 4, userId: 1, title: 'Celebrate', completed: false },
];
const done = (id: number, completed = true) => ({ ...TODOS[id - 1]!, completed });

/**
 * The demo's board: Open and Done, every todo of user 1, a search filtered by `q` (a field todos
 * do not have), page 2 of Open, and the growing Done list page 2 was appended to.
 */
function board(resource: typeof base | typeof plain = base) {
  const harness = setup();
  const { controller } = harness;
  const get = resource.getList;
  controller.setResponse(get, { userId: 1, completed: false }, [TODOS[0], TODOS[1], TODOS[3]]);
  controller.setResponse(get, { userId: 1, completed: true }, [TODOS[2]]);
  controller.setResponse(get, { userId: 1 }, TODOS);
  controller.setResponse(get, { userId: 1, q: 'spec' }, [TODOS[0]]);
  controller.setResponse(get, { userId: 1, completed: false, page: 2 }, [TODOS[3]]);
  controller.setResponse(get, { userId: 1, completed: true, page: 1 }, [TODOS[2]]);
  const ids = (args: object) =>
    (controller.getResponse(get, args as never).data as Todo[] | undefined)?.map((t) => t.id);
  const lists = () => ({
    open: ids({ userId: 1, completed: false }),
    done: ids({ userId: 1, completed: true }),
    all: ids({ userId: 1 }),
    search: ids({ userId: 1, q: 'spec' }),
    openPage2: ids({ userId: 1, completed: false, page: 2 }),
    donePage1: ids({ userId: 1, completed: true, page: 1 }),
  });
  return { ...harness, lists };
}

/** The board once todo 1 is completed (the search list cannot judge it, so it keeps it). */
const ONE_DONE = {
  open: [2, 4],
  done: [3, 1],
  all: [1, 2, 3, 4],
  search: [1],
  openPage2: [4],
  donePage1: [3],
};
const UNCHANGED = {
  open: [1, 2, 4],
  done: [3],
  all: [1, 2, 3, 4],
  search: [1],
  openPage2: [4],
  donePage1: [3],
};

describe('followFilters: a committed write re-files the entity', () => {
  it('a pushed controller.set', () => {
    const { controller, lists } = board();
    controller.set(Todo, done(1));
    assert.deepEqual(lists(), ONE_DONE);
    controller.set(Todo, done(1, false));
    // Back in Open, at its end (as move appends); Done as before.
    assert.deepEqual(lists(), { ...UNCHANGED, open: [2, 4, 1] });
  });

  it('a push of the changed field alone (the stored fields fill in the rest)', () => {
    const { controller, lists } = board();
    controller.set(Todo, { id: 1, completed: true });
    assert.deepEqual(lists(), ONE_DONE);
  });

  it("an update's answer", async () => {
    const { controller, server, lists } = board();
    const updating = controller.fetch(base.partialUpdate, { id: 1 }, { completed: true });
    await flush();
    assert.deepEqual(lists(), UNCHANGED, 'nothing moves before the answer');
    server.take('PATCH /todos/1').respond(200, done(1));
    await updating;
    assert.deepEqual(lists(), ONE_DONE);
  });

  it('setResponse of a read of the entity', () => {
    const { controller, lists } = board();
    controller.setResponse(base.get, { id: 1 }, done(1));
    assert.deepEqual(lists(), ONE_DONE);
  });

  it('an entity pushed for the first time joins the lists it matches', () => {
    const { controller, lists } = board();
    controller.set(Todo, { id: 9, userId: 1, title: 'New', completed: true });
    assert.deepEqual(lists(), { ...UNCHANGED, done: [3, 9], all: [1, 2, 3, 4, 9] });
    // Another user's todo joins none of user 1's lists.
    controller.set(Todo, { id: 10, userId: 2, title: 'Theirs', completed: true });
    assert.deepEqual(lists(), { ...UNCHANGED, done: [3, 9], all: [1, 2, 3, 4, 9] });
  });

  it('a write that changes no filtered field changes no list', () => {
    const { controller, lists } = board();
    const before = controller.getResponse(base.getList, { userId: 1, completed: false }).data;
    controller.set(Todo, { id: 1, title: 'Renamed' });
    assert.deepEqual(lists(), UNCHANGED);
    const after = controller.getResponse(base.getList, { userId: 1, completed: false }).data;
    assert.notEqual(after, before, 'the renamed member is read anew');
    assert.equal((after as Todo[])[0]!.title, 'Renamed');
  });

  it('an entity that leaves every list it matched is not dropped from the store', () => {
    const { controller, lists } = board();
    controller.set(Todo, { id: 1, userId: 2 });
    // Not user 1's any more: out of each list of user 1 that its values can judge.
    assert.deepEqual(lists(), { ...UNCHANGED, open: [2, 4], all: [2, 3, 4], search: [] });
    assert.equal(controller.getResponse(base.get, { id: 1 }).data?.userId, 2);
  });
});

describe('followFilters: the optimistic layer', () => {
  it('an optimistic update moves at once, and the answer keeps it there', async () => {
    const { controller, server, lists } = board(optimistic);
    const updating = controller.fetch(optimistic.partialUpdate, { id: 1 }, { completed: true });
    assert.deepEqual(lists(), ONE_DONE, 'shown moved while the request is on its way');
    await flush();
    server.take('PATCH /todos/1').respond(200, done(1));
    await updating;
    assert.deepEqual(lists(), ONE_DONE);
    assert.deepEqual(controller.getState().optimistic, []);
  });

  it('an optimistic update the server refuses puts every list back', async () => {
    const { controller, server, lists } = board(optimistic);
    const updating = controller.fetch(optimistic.partialUpdate, { id: 1 }, { completed: true });
    assert.deepEqual(lists(), ONE_DONE);
    await flush();
    server.take('PATCH /todos/1').respond(400, { detail: 'no' });
    await assert.rejects(updating);
    assert.deepEqual(lists(), UNCHANGED);
  });

  it('a push while the optimistic update is pending, then the answer', async () => {
    const { controller, server, lists } = board(optimistic);
    const updating = controller.fetch(optimistic.partialUpdate, { id: 1 }, { completed: true });
    controller.set(Todo, done(1));
    assert.deepEqual(lists(), ONE_DONE);
    await flush();
    server.take('PATCH /todos/1').respond(200, done(1));
    await updating;
    assert.deepEqual(lists(), ONE_DONE);
  });
});

describe('followFilters: the end state does not depend on the order', () => {
  for (const [label, resource] of [
    ['optimistic', optimistic],
    ['not optimistic', base],
  ] as const) {
    it(`${label}: the answer, then a push of the same change`, async () => {
      const { controller, server, lists } = board(resource);
      const updating = controller.fetch(resource.partialUpdate, { id: 1 }, { completed: true });
      await flush();
      server.take('PATCH /todos/1').respond(200, done(1));
      await updating;
      controller.set(Todo, done(1));
      assert.deepEqual(lists(), ONE_DONE);
    });

    it(`${label}: a push of the same change, then the answer`, async () => {
      const { controller, server, lists } = board(resource);
      const updating = controller.fetch(resource.partialUpdate, { id: 1 }, { completed: true });
      controller.set(Todo, done(1));
      await flush();
      server.take('PATCH /todos/1').respond(200, done(1));
      await updating;
      assert.deepEqual(lists(), ONE_DONE);
    });

    it(`${label}: five toggles, pushes before and after the answers`, async () => {
      const { controller, server, lists } = board(resource);
      let completed = false;
      for (let round = 0; round < 5; round++) {
        completed = !completed;
        const updating = controller.fetch(resource.partialUpdate, { id: 1 }, { completed });
        if (round % 2 === 0) controller.set(Todo, done(1, completed));
        await flush();
        server.take('PATCH /todos/1').respond(200, done(1, completed));
        await updating;
        if (round % 2 === 1) controller.set(Todo, done(1, completed));
        const now = lists();
        assert.equal(now.open!.includes(1), !completed, `round ${round}: Open`);
        assert.equal(now.done!.includes(1), completed, `round ${round}: Done`);
        assert.deepEqual(now.search, [1], `round ${round}: the search keeps it`);
      }
      assert.deepEqual(lists(), ONE_DONE);
    });
  }

  it('a list answer that left before a push does not bring the entity back', async () => {
    const { controller, server, lists } = board();
    const refetch = controller.fetch(base.getList, { userId: 1, completed: false });
    await flush();
    controller.set(Todo, done(1));
    // The server answered before it heard of the completion: todo 1 still open in its list.
    server.take('GET /todos?userId=1&completed=false').respond(200, [TODOS[0], TODOS[1], TODOS[3]]);
    await refetch;
    assert.deepEqual(lists(), ONE_DONE);
  });

  it("a list's own answer is the server's word for it", () => {
    const { controller, lists } = board();
    // The server lists a completed todo among the open ones (its own rule): shown as answered.
    controller.setResponse(base.getList, { userId: 1, completed: false }, [TODOS[0], done(2)]);
    // …and, by its values, in Done too; todo 4 left out of the answer leaves Open alone.
    assert.deepEqual(lists(), { ...UNCHANGED, open: [1, 2], done: [3, 2] });
  });

  it("another tab's write (hydrate) re-files it too", () => {
    const { controller, clock, lists } = board();
    const state = controller.getState();
    clock.advance(1000);
    hydrate(controller, {
      ...state,
      entities: { Todo: { '1': done(1) } },
      entitiesMeta: {
        Todo: { '1': { fetchedAt: clock.now(), date: clock.now(), expiresAt: Infinity } },
      },
      endpoints: {},
      meta: {},
      errors: {},
    });
    assert.deepEqual(lists(), ONE_DONE);
  });
});

describe('followFilters: lists its values cannot judge', () => {
  it('a list filtered by an argument the entity has no field for keeps it as it is', () => {
    const { controller, lists } = board();
    controller.set(Todo, done(1));
    assert.deepEqual(lists().search, [1]);
    // A new todo does not join it either: whether it matches `q` is the server's to say.
    controller.set(Todo, { id: 9, userId: 1, title: 'spec it', completed: false });
    assert.deepEqual(lists().search, [1]);
  });

  it('it still leaves such a list when a field it has no longer matches', () => {
    const { controller, lists } = board();
    controller.setResponse(base.getList, { userId: 1, q: 'spec', completed: false }, [TODOS[0]]);
    controller.set(Todo, done(1));
    const ids = controller
      .getResponse(base.getList, { userId: 1, q: 'spec', completed: false })
      .data!.map((todo) => todo.id);
    assert.deepEqual(ids, []);
    assert.deepEqual(lists().search, [1]);
  });

  it('page reads: it leaves a page it no longer matches and joins no page', () => {
    const { controller, lists } = board();
    controller.set(Todo, done(4));
    assert.deepEqual(lists(), {
      ...UNCHANGED,
      openPage2: [],
      donePage1: [3],
      // The lists read without a page (a growing list getPage appends to) take it at their end.
      open: [1, 2],
      done: [3, 4],
    });
  });

  it('a growing list (getPage appended to it) takes it at its end', async () => {
    const { controller, server } = board();
    const page = controller.fetch(base.getList.getPage, { userId: 1, completed: true, page: 2 });
    await flush();
    server
      .take('GET /todos?userId=1&completed=true&page=2')
      .respond(200, [{ id: 5, userId: 1, title: 'Later', completed: true }]);
    await page;
    controller.set(Todo, done(1));
    const ids = controller
      .getResponse(base.getList, { userId: 1, completed: true })
      .data!.map((todo) => todo.id);
    assert.deepEqual(ids, [3, 5, 1]);
  });

  it('arguments that only order a list (nonFilterArgumentKeys) do not keep it out', () => {
    const { controller } = board();
    controller.setResponse(
      base.getList,
      { userId: 1, completed: true, ordering: 'title' } as never,
      [TODOS[2]],
    );
    controller.set(Todo, done(1));
    const ids = controller
      .getResponse(base.getList, { userId: 1, completed: true, ordering: 'title' } as never)
      .data!.map((todo) => todo.id);
    assert.deepEqual(ids, [3, 1]);
  });

  it('a deleted (INVALID) entity is left to the reads, which drop it', async () => {
    const { controller, server, lists } = board();
    const deleting = controller.fetch(base.delete, { id: 1 });
    await flush();
    server.take('DELETE /todos/1').respond(204);
    await deleting;
    assert.deepEqual(lists(), { ...UNCHANGED, open: [2, 4], all: [2, 3, 4], search: [] });
  });
});

describe('followFilters: off by default', () => {
  it('lists of a Collection nobody follows stay as the server answered them', () => {
    const { controller, lists } = board(plain);
    controller.set(PlainTodo, done(1));
    assert.deepEqual(lists(), UNCHANGED);
  });
});

describe('followFilters: what it takes', () => {
  it('a Collection, or an endpoint whose schema holds one (an envelope), given back as it is', () => {
    class Note extends Todo {
      static override key = 'Note';
    }
    const notes = new Collection([Note]);
    assert.equal(followFilters(notes), notes);
    const page = new RestEndpoint({ path: '/notes', schema: { results: notes, total: 0 } });
    assert.equal(followFilters(page), page);
    const { controller } = setup();
    controller.setResponse(page, { completed: false }, { results: [TODOS[0]], total: 1 });
    controller.setResponse(page, { completed: true }, { results: [], total: 0 });
    controller.set(Note, done(1));
    const read = (completed: boolean) =>
      controller.getResponse(page, { completed }).data!.results.map((note) => note.id);
    assert.deepEqual([read(false), read(true)], [[], [1]]);
  });

  it('a variant follows as the Collection it was made from', () => {
    class Card extends Todo {
      static override key = 'Card';
    }
    const cards = createResource({ path: '/cards/:id', schema: Card, paginationField: 'page' });
    followFilters(cards.getList.getPage);
    const { controller } = setup();
    controller.setResponse(cards.getList, { completed: true }, []);
    controller.set(Card, done(1));
    const ids = controller.getResponse(cards.getList, { completed: true }).data!.map((c) => c.id);
    assert.deepEqual(ids, [1]);
  });

  it('refuses what holds no Collection, naming what it got', () => {
    assert.throws(
      () => followFilters(42 as never),
      /followFilters got a number, which holds no schema\.Collection/,
    );
    assert.throws(
      () => followFilters(Todo as never),
      /followFilters got .*which holds no schema\.Collection/,
    );
    assert.throws(() => followFilters(base.get), /holds no schema\.Collection/);
  });

  it('refuses lists of something else than an Entity class, naming the Collection', () => {
    class Cat extends Entity {
      id = '';
      pk() {
        return this.id;
      }
      static override key = 'Cat';
    }
    const pets = new UnionSchema({ cat: Cat }, 'type');
    assert.throws(
      () => followFilters(new Collection([pets], { key: 'pets' })),
      /followFilters: the lists of pets hold .*, not an Entity class/,
    );
  });

  it("a filter of the app's own that throws changes nothing", () => {
    class Flaky extends Todo {
      static override key = 'Flaky';
    }
    class FlakyLists extends Collection {
      broken = false;
      override createCollectionFilter(...args: Parameters<Collection['createCollectionFilter']>) {
        if (this.broken) throw new Error('filter broke');
        return super.createCollectionFilter(...args);
      }
    }
    const lists = new FlakyLists([Flaky]);
    followFilters(lists);
    const list = new RestEndpoint({ path: '/flaky', schema: lists });
    const { controller } = setup();
    controller.setResponse(list, { completed: false }, [TODOS[0]]);
    const before = controller.getState();
    lists.broken = true;
    assert.throws(() => controller.set(Flaky, done(1)), /filter broke/);
    assert.equal(controller.getState(), before);
    assert.deepEqual(controller.getState().entities.Flaky, { '1': TODOS[0] });
  });

  it('a write costs the lists of its own Collection: each judged once, no other list read', () => {
    class Counted extends Todo {
      static override key = 'Counted';
    }
    let judged = 0;
    class CountedLists extends Collection {
      override createCollectionFilter(...args: Parameters<Collection['createCollectionFilter']>) {
        const test = super.createCollectionFilter(...args);
        return (listArgs: Parameters<typeof test>[0]) => (judged++, test(listArgs));
      }
    }
    const counted = new RestEndpoint({
      path: '/counted',
      schema: followFilters(new CountedLists([Counted])),
    });
    const { controller } = setup();
    controller.setResponse(counted, { completed: false }, [TODOS[0]]);
    controller.setResponse(counted, { completed: true }, []);
    controller.setResponse(counted, { userId: 1 }, [TODOS[0]]);
    for (let i = 0; i < 50; i++) controller.setResponse(plain.getList, { userId: i }, []);
    judged = 0;
    controller.set(Counted, done(1));
    // Three lists: each judged by its whole filter, and Done's and the user's list match at once;
    // Open again by the fields todo 1 has (it lacks none), to tell "leave" from "cannot say".
    assert.equal(judged, 4);
    judged = 0;
    controller.set(PlainTodo, done(1));
    controller.set(Todo, done(1));
    assert.equal(judged, 0, 'writes of other entities judge none of these lists');
  });
});
