// Translated from reactive/data-client packages/endpoint/src/schemas/__tests__/Entity.test.ts,
// plus the issue-15 behaviours it covers (summary/detail classes, pk checks, reads).
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import {
  Entity,
  INVALID,
  MemoCache,
  denormalize,
  normalize,
  schema,
} from '../../src/core/index.js';
import type { EntityTable } from '../../src/core/index.js';
import { IDEntity, differs, plain, withoutMeta } from './support.js';

class Tacos extends IDEntity {
  name = '';
  static override key = 'Tacos';
}

class Food extends IDEntity {
  static override key = 'Food';
}
class Menu extends IDEntity {
  food: Food = Food.fromJS();
  static override key = 'Menu';
  static override schema = { food: Food };
}

describe('endpoint Entity.test.ts', () => {
  describe('Entity normalization', () => {
    it('normalizes an entity', () => {
      assert.deepEqual(withoutMeta(normalize(Tacos, { id: '1' })), {
        result: '1',
        entities: { Tacos: { 1: { id: '1' } } },
      });
    });

    it('normalize throws error when id missing with no pk', () => {
      assert.throws(() => normalize(Tacos, { slug: '1' }), /Entity Tacos has no pk\(\)/);
    });

    it('normalizes already processed entities', () => {
      class Nested extends IDEntity {
        title = '';
        nest = Tacos.fromJS();
        static override key = 'Nested';
        static override schema = { nest: Tacos };
      }
      assert.deepEqual(normalize(new schema.Array(Tacos), ['1']).result, ['1']);
      assert.deepEqual(normalize(new schema.Object({ data: Tacos }), { data: '1' }).result, {
        data: '1',
      });
      assert.deepEqual(normalize(Nested, { title: 'hi', id: '5', nest: '10' }).entities, {
        Nested: { 5: { title: 'hi', id: '5', nest: '10' } },
      });
    });

    it(
      'normalizes does not change value when shouldUpdate() returns false',
      differs('docs/differences.md: Entity: no shouldUpdate (merge and fetchedAt ordering decide)'),
      () => {},
    );

    class Named extends Entity {
      name = '';
      secondthing = '';
      static override key = 'Named';
      pk(): string {
        return this.name;
      }
    }

    it('should throw a custom error if data does not include pk', () => {
      assert.throws(
        () => normalize(Named, { secondthing: 'hi' }),
        /Entity Named has no pk\(\): got undefined from \{"secondthing":"hi"\}/,
      );
    });

    it('should throw a custom error if data does not include pk (serializes pk)', () => {
      class Serialized extends Named {
        static override key = 'Serialized';
        override pk(): string {
          return `${(this as { name?: string }).name}`;
        }
      }
      // `${undefined}` is the string "undefined": never a pk (issue 15 item 8).
      assert.throws(
        () => normalize(Serialized, { secondthing: 'hi' }),
        /Entity Serialized has no pk\(\): got "undefined"/,
      );
    });

    it('should throw a custom error if data loads with no matching props', () => {
      assert.throws(() => normalize(Named, {}), /Entity Named has no pk\(\)/);
    });

    it('should throw a custom error loads with array', () => {
      assert.throws(
        () => normalize(Named, [{ name: 'hi', secondthing: 'ho' }]),
        /Entity Named expected an object, got an array/,
      );
    });

    it('should throw with custom validator', () => {
      class Validated extends Named {
        static override key = 'Validated';
        static override validate(props: Record<string, unknown>): string | undefined {
          return typeof props.secondthing === 'string' ? undefined : 'secondthing is missing';
        }
      }
      assert.throws(
        () => normalize(Validated, { name: 'x' }),
        /Entity Validated is invalid: secondthing is missing at the response/,
      );
    });

    it('should throw a custom error if data loads with string', () => {
      assert.throws(() => normalize(Named, 'hibho'), /Expected a Named object, got a string/);
    });

    it(
      'should warn when automaticValidation === "warn"',
      differs(
        'docs/differences.md: Entity: validation is static validate(), no automaticValidation mode',
      ),
      () => {},
    );
    it(
      'should do nothing when automaticValidation === "silent"',
      differs('docs/differences.md: Entity: no automaticValidation mode'),
      () => {},
    );

    describe('key', () => {
      it('must be created with a key name', () => {
        const makeSchema = () =>
          class extends Entity {
            id = 0;
            pk(): number {
              return this.id;
            }
          };
        assert.throws(() => makeSchema().key, /has no static key/);
      });

      it('key getter should return key set via `static get key()`', () => {
        class User extends IDEntity {
          static override get key(): string {
            return 'user';
          }
        }
        assert.equal(User.key, 'user');
      });
    });

    describe('pk()', () => {
      it('can use a custom pk() string', () => {
        class User extends Entity {
          idStr = '';
          name = '';
          static override key = 'User';
          pk(): string {
            return this.idStr;
          }
        }
        assert.deepEqual(normalize(User, { idStr: '134351', name: 'Kathy' }).entities, {
          User: { 134351: { idStr: '134351', name: 'Kathy' } },
        });
      });

      it('can normalize entity IDs based on their object key', () => {
        class User extends Entity {
          name = '';
          static override key = 'User';
          pk(_parent?: unknown, key?: string): string | undefined {
            return key;
          }
        }
        const out = normalize(new schema.Values(User), {
          4: { name: 'taco' },
          56: { name: 'burrito' },
        });
        assert.deepEqual(out.result, { 4: '4', 56: '56' });
        assert.deepEqual(out.entities, { User: { 4: { name: 'taco' }, 56: { name: 'burrito' } } });
      });

      it("can build the entity's ID from the parent object", () => {
        class User extends Entity {
          id = '';
          name = '';
          static override key = 'User';
          pk(parent?: unknown, key?: string): string {
            return `${(parent as { name: string }).name}-${key}-${this.id}`;
          }
        }
        const out = normalize(new schema.Object({ user: User }), {
          name: 'tacos',
          user: { id: '4', name: 'Jimmy' },
        });
        assert.deepEqual(out.result, { name: 'tacos', user: 'tacos-user-4' });
      });

      // Issue 15 item 8: an object or array pk would be stored as "[object Object]", merging records.
      it('rejects a pk() that is an object or an array, naming the entity', () => {
        class Weird extends Entity {
          ref: unknown = null;
          static override key = 'Weird';
          pk(): string {
            return this.ref as string;
          }
        }
        assert.throws(
          () => normalize([Weird], [{ ref: { a: 1 } }]),
          /Entity Weird has a pk\(\) that is an object, not a string or number.* at response\[0\]/,
        );
        assert.throws(() => normalize(Weird, { ref: [1] }), /pk\(\) that is an array/);
      });

      it('keeps a numeric pk given in place of a nested entity as a number', () => {
        class Post extends IDEntity {
          static override key = 'Post';
          static override schema = { author: Tacos };
        }
        const out = normalize(Post, { id: '1', author: 5 });
        assert.equal((out.entities.Post!['1'] as { author: unknown }).author, 5);
      });
    });

    describe('mergeStrategy', () => {
      it('defaults to plain merging', () => {
        const out = normalize(
          [Tacos],
          [
            { id: '1', name: 'foo' },
            { id: '1', name: 'bar', alias: 'bar' },
          ],
        );
        assert.deepEqual(out.entities, { Tacos: { 1: { id: '1', name: 'bar', alias: 'bar' } } });
      });

      it('can use a custom merging strategy', () => {
        class MergeTaco extends Tacos {
          static override key = 'MergeTaco';
          static override merge(
            existing: Record<string, unknown>,
            incoming: Record<string, unknown>,
          ): Record<string, unknown> {
            return { ...existing, ...incoming, name: existing.name };
          }
        }
        const out = normalize(
          [MergeTaco],
          [
            { id: '1', name: 'foo' },
            { id: '1', name: 'bar', alias: 'bar' },
          ],
        );
        assert.deepEqual(out.entities, {
          MergeTaco: { 1: { id: '1', name: 'foo', alias: 'bar' } },
        });
      });
    });

    describe('process', () => {
      it('can use a custom processing strategy', () => {
        class ProcessTaco extends Tacos {
          slug = '';
          static override key = 'ProcessTaco';
          static override process(input: Record<string, unknown>): Record<string, unknown> {
            return { ...input, slug: `thing-${input.id as string}` };
          }
        }
        const { entities, result } = normalize(ProcessTaco, { id: '1', name: 'foo' });
        const final = new MemoCache().denormalize(ProcessTaco, result, entities) as ProcessTaco;
        assert.ok(final instanceof ProcessTaco);
        assert.equal(final.slug, 'thing-1');
      });

      it('can use information from the parent in the process strategy', () => {
        class ChildEntity extends IDEntity {
          content = '';
          parentId = '';
          parentKey = '';
          static override key = 'ChildEntity';
          static override process(
            input: Record<string, unknown>,
            parent?: unknown,
            key?: string,
          ): Record<string, unknown> {
            return { ...input, parentId: (parent as { id?: string })?.id, parentKey: key };
          }
        }
        class ParentEntity extends IDEntity {
          content = '';
          child: ChildEntity = ChildEntity.fromJS({});
          static override key = 'ParentEntity';
          static override schema = { child: ChildEntity };
        }
        const { entities, result } = normalize(ParentEntity, {
          id: '1',
          content: 'parent',
          child: { id: '4', content: 'child' },
        });
        const final = new MemoCache().denormalize(ParentEntity, result, entities) as ParentEntity;
        assert.equal(final.child.parentId, '1');
        assert.equal(final.child.parentKey, 'child');
      });

      it('is run before and passed to the schema denormalization', () => {
        class Attachment extends IDEntity {
          static override key = 'Attachment';
        }
        class Entries extends IDEntity {
          type = '';
          data: { attachment?: Attachment } = {};
          static override key = 'Entries';
          static override schema = { data: { attachment: Attachment } };
          static override process(input: Record<string, unknown>): Record<string, unknown> {
            const [type] = Object.keys(input);
            return { ...(input[type!] as object), type };
          }
        }
        const { entities, result } = normalize(Entries, {
          message: { id: '123', data: { attachment: { id: '456' } } },
        });
        const final = new MemoCache().denormalize(Entries, result, entities) as Entries;
        assert.equal(final.type, 'message');
        assert.ok(final.data.attachment instanceof Attachment);
      });

      it(
        'when undefined is returned, INVALIDate the entity',
        differs(
          'docs/differences.md: Entity.process turns input into what is stored; invalidation is schema.Invalidate',
        ),
        () => {},
      );
    });
  });

  describe('Entity denormalization', () => {
    it('denormalizes an entity', () => {
      const out = denormalize(Tacos, '1', { Tacos: { 1: { id: '1', name: 'foo' } } });
      assert.ok(out instanceof Tacos);
      assert.deepEqual(plain(out), { id: '1', name: 'foo' });
    });

    const menus = {
      Menu: { 1: { id: '1', food: '1' }, 2: { id: '2' } },
      Food: { 1: { id: '1' } },
    };

    it('denormalizes deep entities', () => {
      const first = denormalize(Menu, '1', menus) as Menu;
      assert.ok(first.food instanceof Food);
      assert.equal(first.food.id, '1');
      const second = denormalize(Menu, '2', menus) as Menu;
      assert.ok(second.food instanceof Food, 'not in the stored data: the class default');
      assert.equal(second.food.id, '');
    });

    it('denormalizes deep entities while maintaining referential equality', () => {
      const memo = new MemoCache();
      const first = memo.denormalize(Menu, '1', menus) as Menu;
      const second = memo.denormalize(Menu, '1', menus) as Menu;
      assert.equal(first, second);
      assert.equal(first.food, second.food);
    });

    // Issue 15 item 7: validate() runs on stored data when it is read.
    it('denormalizes to undefined when validate() returns string', () => {
      class MyTacos extends Tacos {
        static override key = 'MyTacos';
        static override validate(props: Record<string, unknown>): string | undefined {
          return Object.prototype.hasOwnProperty.call(props, 'name') ? undefined : 'no name';
        }
      }
      const entities = { MyTacos: { 1: { id: '1' } } };
      assert.equal(denormalize(MyTacos, '1', entities), INVALID);
      assert.equal(new MemoCache().denormalize(MyTacos, '1', entities), INVALID);
      assert.deepEqual(denormalize([MyTacos], ['1'], entities), []);
    });

    // Issue 15 item 7: a missing required nested entity makes the read invalid.
    it('denormalizes to undefined for missing data', () => {
      const entities = { Menu: { 1: { id: '1', food: '2' } }, Food: { 1: { id: '1' } } };
      // A required nested entity the store does not hold reads as undefined, as in the reference.
      for (const menu of [
        denormalize(Menu, '1', entities),
        new MemoCache().denormalize(Menu, '1', entities),
      ]) {
        assert.ok(menu instanceof Menu);
        assert.deepEqual({ ...menu }, { id: '1', food: undefined });
      }
      // We differ at the top (docs/differences.md): a missing top-level entity is INVALID.
      assert.equal(denormalize(Menu, '2', entities), INVALID);
    });

    it('should handle optional schema entries Entity', () => {
      class Optional extends Entity {
        name = '';
        secondthing = '';
        blarb: Food | undefined = undefined;
        static override key = 'Optional';
        static override schema = { blarb: Food };
        pk(): string {
          return this.name;
        }
      }
      const out = denormalize(Optional, 'bob', {
        Optional: { bob: { name: 'bob', secondthing: 'hi' } },
      }) as Optional;
      assert.deepEqual({ ...out }, { name: 'bob', secondthing: 'hi', blarb: undefined });
    });

    it('should handle null schema entries Entity', () => {
      class Nullable extends Entity {
        name = '';
        secondthing = '';
        blarb: Food | null = null;
        static override key = 'Nullable';
        static override schema = { blarb: Food };
        pk(): string {
          return this.name;
        }
      }
      const out = denormalize(Nullable, 'bob', {
        Nullable: { bob: { name: 'bob', secondthing: 'hi', blarb: null } },
      }) as Nullable;
      assert.deepEqual({ ...out }, { name: 'bob', secondthing: 'hi', blarb: null });
    });

    it('denormalizes to undefined for deleted data', () => {
      const entities: EntityTable = {
        Menu: { 1: { id: '1', food: '2' }, 2: INVALID },
        Food: { 1: { id: '1' }, 2: INVALID },
      };
      assert.equal(denormalize(Menu, '1', entities), INVALID);
      assert.equal(denormalize(Menu, '2', entities), INVALID);
    });

    // Issue 15 item 7: nested objects already denormalized come back as Entity instances.
    it('can denormalize already partially denormalized data', () => {
      const entities = {
        Menu: { 1: { id: '1', food: { id: '1' } } },
        Food: { 1: { id: '1', extra: 'hi' } },
      };
      const menu = denormalize(Menu, '1', entities) as Menu;
      assert.ok(menu.food instanceof Food);
      assert.equal(menu.food.id, '1');
      const cached = new MemoCache().denormalize(Menu, '1', entities) as Menu;
      assert.ok(cached.food instanceof Food);
    });

    class User extends IDEntity {
      role = '';
      reports: Report[] = [];
      static override key = 'User';
    }
    class Report extends IDEntity {
      title = '';
      draftedBy: User = User.fromJS();
      publishedBy: User = User.fromJS();
      static override key = 'Report';
      static override schema = { draftedBy: User, publishedBy: User };
    }
    User.schema = { reports: new schema.Array(Report) };
    const recursive = {
      Report: { 123: { id: '123', title: 'Weekly report', draftedBy: '456', publishedBy: '456' } },
      User: { 456: { id: '456', role: 'manager', reports: ['123'] } },
    };

    it('denormalizes recursive dependencies', () => {
      const report = denormalize(Report, '123', recursive) as Report;
      assert.equal(report.draftedBy, report.publishedBy);
      assert.equal(report.draftedBy.reports[0], report);
      const user = denormalize(User, '456', recursive) as User;
      assert.equal(user.reports[0]!.draftedBy, user);
    });

    it('denormalizes recursive entities with referential equality', () => {
      const memo = new MemoCache();
      const report = memo.denormalize(Report, '123', recursive) as Report;
      assert.equal(report.draftedBy.reports[0], report);
      assert.equal(memo.denormalize(Report, '123', recursive), report);
    });

    it('denormalizes maintain referential equality when appropriate', () => {
      const memo = new MemoCache();
      const first = memo.denormalize(Report, '123', recursive) as Report;
      const changed = {
        ...recursive,
        Report: { 123: { ...recursive.Report['123'], title: 'Monthly report' } },
      };
      const second = memo.denormalize(Report, '123', changed) as Report;
      assert.notEqual(first, second);
      assert.equal(second.title, 'Monthly report');
    });

    describe('optional entities', () => {
      class Post extends IDEntity {
        author: User | null = null;
        editor: User = User.fromJS();
        static override key = 'Post';
        static override schema = { author: User, editor: User };
      }

      it('should be marked as found even when optional is not there', () => {
        const entities = { Post: { 1: { id: '1', editor: '456' } }, User: recursive.User };
        const post = denormalize(Post, '1', entities) as Post;
        assert.ok(post instanceof Post);
        assert.equal(post.author, null);
      });

      it('should be marked as found when nested entity is missing', () => {
        const entities = {
          Post: { 1: { id: '1', author: '999', editor: '456' } },
          User: recursive.User,
        };
        const post = denormalize(Post, '1', entities) as Post;
        assert.equal(post.author, undefined);
      });

      it('should be marked as deleted when required entity is deleted symbol', () => {
        const entities: EntityTable = {
          Post: { 1: { id: '1', editor: '456' } },
          User: { 456: INVALID },
        };
        assert.equal(denormalize(Post, '1', entities), INVALID);
      });

      it('should be non-required deleted members should not result in deleted indicator', () => {
        const entities: EntityTable = {
          Post: { 1: { id: '1', author: '457', editor: '456' } },
          User: { ...recursive.User, 457: INVALID },
        };
        const post = denormalize(Post, '1', entities) as Post;
        assert.equal(post.author, undefined);
        assert.ok(post.editor instanceof User);
      });

      it('should be deleted when both are true in different parts of schema', () => {
        const entities: EntityTable = {
          Post: { 1: { id: '1', author: '457', editor: '457' } },
          User: { 457: INVALID },
        };
        assert.equal(denormalize(Post, '1', entities), INVALID);
      });
    });
  });

  // Issue 15 item 1: two classes sharing one key (summary and detail) never share instances.
  describe('summary/detail classes with one key (issue 15)', () => {
    class ArticleSummary extends IDEntity {
      title = '';
      static override key = 'Article';
    }
    class Article extends ArticleSummary {
      body = '';
      static override key = 'Article';
    }
    const entities = { Article: { 1: { id: '1', title: 't', body: 'b' } } };

    it('a list read through the summary class returns summary instances after a detail read', () => {
      const memo = new MemoCache();
      const detail = memo.denormalize(Article, '1', entities);
      const list = memo.denormalize([ArticleSummary], ['1'], entities) as ArticleSummary[];
      assert.ok(detail instanceof Article);
      assert.equal(Object.getPrototypeOf(list[0]), ArticleSummary.prototype);
      assert.equal(memo.denormalize(Article, '1', entities), detail, 'each class keeps its own');
    });

    it('one pass reading both classes gives each its own instance', () => {
      const both = denormalize(
        { summary: ArticleSummary, detail: Article },
        {
          summary: '1',
          detail: '1',
        },
        entities,
      ) as { summary: ArticleSummary; detail: Article };
      assert.equal(Object.getPrototypeOf(both.summary), ArticleSummary.prototype);
      assert.equal(Object.getPrototypeOf(both.detail), Article.prototype);
    });
  });

  // Issue 15 item 7: a primitive in the entity table must not crash the read cache.
  it('a primitive stored value reads as missing instead of crashing the read cache', () => {
    const memo = new MemoCache();
    assert.equal(memo.denormalize(Tacos, '1', { Tacos: { 1: 5 } } as never), INVALID);
    assert.deepEqual(memo.denormalize([Tacos], ['1'], { Tacos: { 1: 'x' } } as never), []);
  });
});
