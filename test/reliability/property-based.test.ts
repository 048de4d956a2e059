// Properties checked over many generated inputs with fast-check: no value can change a URL's path
// segments or query pairs, and normalizing then denormalizing a random entity graph (with shared
// references) gives back the data that went in.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Controller } from '../../src/core/controller/controller.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import { normalize } from '../../src/core/normalize/normalize.js';
import { denormalize } from '../../src/core/normalize/denormalizer.js';
import { failOnUnhandledRejection } from './support.js';

failOnUnhandledRejection();

const RUNS = 300;

/** Strings a value may hold: any Unicode (lone surrogates included) plus known troublemakers. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('../', '..', '.', '/', '?', '#', '%', '%2F', '&', '=', '+', ' ', '\\', '\u0000'),
  fc
    .array(fc.constantFrom('/', '.', '?', '#', '%', '&', '=', 'a', '\uD83D', '\uDE00', ' '), {
      maxLength: 8,
    })
    .map((parts) => parts.join('')),
);

const isWellFormed = (text: string) => {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
};

const TEMPLATES = ['/:a', '/api/:a/items/:b', '/:a/:b/:c', '/v1/:a/x-:b/end'] as const;

describe('reliability (property): URL building', () => {
  it('no path value changes the number or the decoded values of path segments', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TEMPLATES),
        fc.array(anyText, { minLength: 3, maxLength: 3 }),
        (template, [a, b, c]) => {
          const endpoint = new RestEndpoint({ path: template, urlPrefix: 'https://api.test' });
          const all = { a: a!, b: b!, c: c! };
          // Only the template's own parameters: any other would go to the query string.
          const values = Object.fromEntries(
            Object.entries(all).filter(([name]) => template.includes(`:${name}`)),
          ) as typeof all;
          let url: string;
          try {
            url = endpoint.url(values);
          } catch (error) {
            // The only refusals: values that cannot be one segment, each named in the error.
            const message = (error as Error).message;
            assert.match(message, /Path parameter "[abc]" for path "/);
            const bad = Object.values(values).some(
              (value) => value === '' || value === '.' || value === '..' || !isWellFormed(value),
            );
            assert.ok(bad, `refused good values: ${message}`);
            return;
          }
          const parsed = new URL(url);
          assert.equal(parsed.origin, 'https://api.test');
          assert.equal(parsed.search, '');
          assert.equal(parsed.hash, '');
          const expected = template
            .split('/')
            .slice(1)
            .map((part) => part.replace(/:([abc])/g, (_, name: 'a' | 'b' | 'c') => all[name]));
          const actual = parsed.pathname.split('/').slice(1).map(decodeURIComponent);
          assert.deepEqual(actual, expected);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('query names and values arrive as exactly the pairs given, in order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(anyText, anyText), {
          selector: ([name]) => name,
          maxLength: 5,
        }),
        anyText,
        (pairs, id) => {
          fc.pre(id !== '' && id !== '.' && id !== '..' && id !== 'id');
          const params: Record<string, string> = {};
          for (const [name, value] of pairs) {
            if (name !== 'id') Object.defineProperty(params, name, { value, enumerable: true });
          }
          const endpoint = new RestEndpoint({ path: '/things/:id', urlPrefix: 'https://api.test' });
          let url: string;
          try {
            url = endpoint.url({ id, ...params });
          } catch (error) {
            const texts = [id, ...Object.keys(params), ...Object.values(params)];
            assert.ok(
              texts.some((text) => !isWellFormed(text)),
              (error as Error).message,
            );
            assert.match((error as Error).message, /(Path|Query) parameter|query parameter name/);
            return;
          }
          const parsed = new URL(url);
          assert.deepEqual(parsed.pathname.split('/').slice(1).map(decodeURIComponent), [
            'things',
            id,
          ]);
          assert.deepEqual([...parsed.searchParams], Object.entries(params));
          assert.equal(parsed.hash, '');
          // The cache key is the same URL with the pairs sorted: same pairs, nothing else.
          const key = endpoint.key({ id, ...params });
          const keyed = new URL(key.slice('GET '.length));
          assert.deepEqual([...keyed.searchParams].sort(), Object.entries(params).sort());
        },
      ),
      { numRuns: RUNS },
    );
  });
});

// ---- A random graph of users, posts and comments, with shared references ----

class User extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'PbtUser';
}

class Comment extends Entity {
  id = '';
  text = '';
  author = User.fromJS();
  pk() {
    return this.id;
  }
  static key = 'PbtComment';
  static schema = { author: User };
}

class Post extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  comments: Comment[] = [];
  reviewer: User | null = null;
  pk() {
    return this.id;
  }
  static key = 'PbtPost';
  static schema = { author: User, comments: [Comment], reviewer: User };
}

interface UserData {
  id: string;
  name: string;
}
interface CommentData {
  id: string;
  text: string;
  author: UserData;
}
interface PostData {
  id: string;
  title: string;
  author: UserData;
  comments: CommentData[];
  reviewer: UserData | null;
}

/**
 * Posts whose authors, reviewers and comment authors are drawn from one pool of users, and whose
 * comments may be shared between posts: the same entity appears many times, always with the same
 * data (as a consistent server sends it).
 */
const graph = fc
  .record({
    users: fc.uniqueArray(fc.record({ id: anyText, name: anyText }), {
      selector: (user) => user.id,
      minLength: 1,
      maxLength: 6,
    }),
    commentTexts: fc.array(anyText, { maxLength: 8 }),
    posts: fc.array(
      fc.record({
        title: anyText,
        author: fc.nat(),
        reviewer: fc.option(fc.nat(), { nil: null }),
        comments: fc.array(fc.record({ comment: fc.nat(), author: fc.nat() }), { maxLength: 4 }),
      }),
      { maxLength: 6 },
    ),
  })
  .map(({ users, commentTexts, posts }): PostData[] => {
    const pool = users.filter((user) => user.id !== '');
    if (pool.length === 0) pool.push({ id: 'u', name: 'fallback' });
    const user = (index: number) => pool[index % pool.length]!;
    // A comment's author is fixed by its index, so a shared comment is the same everywhere.
    const comment = (index: number): CommentData => ({
      id: `c${index}`,
      text: commentTexts[index] ?? '',
      author: user(index * 7),
    });
    return posts.map((post, index) => ({
      id: `p${index}`,
      title: post.title,
      author: user(post.author),
      comments: post.comments.map(({ comment: which }) => comment(which % 10)),
      reviewer: post.reviewer === null ? null : user(post.reviewer),
    }));
  });

/** Entity instances back to plain data (own fields only). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

describe('reliability (property): normalize then denormalize', () => {
  it('returns data equal to the input for random graphs with shared references', () => {
    fc.assert(
      fc.property(graph, (posts) => {
        const { result, entities } = normalize([Post], posts);
        const back = denormalize([Post], result, entities) as Post[];
        assert.deepEqual(plain(back), plain(posts));
        // Shared references come back as one object per entity.
        const byId = new Map<string, unknown>();
        for (const post of back) {
          for (const user of [post.author, post.reviewer, ...post.comments.map((c) => c.author)]) {
            if (!user) continue;
            const seen = byId.get(user.id);
            if (seen) assert.equal(seen, user, `user ${JSON.stringify(user.id)} is one object`);
            else byId.set(user.id, user);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('a Controller stores and reads back random graphs, and a second copy changes nothing', () => {
    const getPosts = new RestEndpoint({ path: '/posts', schema: [Post] });
    fc.assert(
      fc.property(graph, (posts) => {
        fc.pre(posts.length > 0);
        const controller = new Controller({ gcTime: Infinity });
        controller.setResponse(getPosts, {}, posts);
        const first = controller.getResponse(getPosts).data!;
        assert.deepEqual(plain(first), plain(posts));
        controller.setResponse(getPosts, {}, structuredClone(posts));
        const second = controller.getResponse(getPosts).data!;
        assert.deepEqual(plain(second), plain(posts));
        // Readers compare by reference: equal data must not make every view render again.
        second.forEach((post, index) => assert.equal(post, first[index], 'the same Post object'));
      }),
      { numRuns: RUNS },
    );
  });
});
