import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { fillPath, parsePath, pathParams, shortenPath } from './path.js';

describe('parsePath', () => {
  it('reads required and optional parameters', () => {
    assert.deepEqual(parsePath('/:group/posts/:id?'), [
      '/',
      { name: 'group', optional: false },
      '/posts/',
      { name: 'id', optional: true },
    ]);
  });

  it('treats a backslash-escaped character as literal', () => {
    assert.deepEqual(parsePath('/time\\:now/:id'), ['/time:now/', { name: 'id', optional: false }]);
    assert.deepEqual(parsePath('/search\\?q=:q'), ['/search?q=', { name: 'q', optional: false }]);
    assert.deepEqual(pathParams('/a\\:b/\\\\:c'), [{ name: 'c', optional: false }]);
  });

  it('reads a colon not followed by a name as literal text', () => {
    assert.deepEqual(parsePath('/a:/b'), ['/a:/b']);
  });

  it('ends a name at the first character that cannot be in one', () => {
    assert.deepEqual(parsePath('/files/:name.json'), [
      '/files/',
      { name: 'name', optional: false },
      '.json',
    ]);
  });
});

describe('fillPath', () => {
  it('fills required parameters', () => {
    assert.equal(fillPath('/:group/posts/:id', { group: 'news', id: 5 }), '/news/posts/5');
  });

  it('names the parameter and the template when a required one is missing', () => {
    assert.throws(
      () => fillPath('/:group/posts/:id', { group: 'news' }),
      /Missing required path parameter "id" for path "\/:group\/posts\/:id": got \{"group":"news"\}/,
    );
    assert.throws(() => fillPath('/users/:id', { id: null }), /"id"/);
  });

  it('leaves out a missing optional parameter with the slash before it', () => {
    assert.equal(fillPath('/users/:id?', {}), '/users');
    assert.equal(fillPath('/users/:id?', { id: '' }), '/users');
    assert.equal(fillPath('/users/:id?', { id: 3 }), '/users/3');
    assert.equal(fillPath('/search\\?q=:q?', {}), '/search?q=');
  });

  it('encodes values so they can never change the shape of the path', () => {
    assert.equal(fillPath('/users/:id', { id: '../admin' }), '/users/..%2Fadmin');
    assert.equal(fillPath('/users/:id', { id: 'a/b?c=d#e' }), '/users/a%2Fb%3Fc%3Dd%23e');
    assert.equal(fillPath('/users/:id', { id: '100%' }), '/users/100%25');
    assert.equal(
      fillPath('/users/:id', { id: 'żółw 🐢' }),
      '/users/%C5%BC%C3%B3%C5%82w%20%F0%9F%90%A2',
    );
  });

  it('refuses values that would still change the path: empty, dot segments, objects', () => {
    assert.throws(
      () => fillPath('/users/:id/edit', { id: '' }),
      /"id" for path "\/users\/:id\/edit" is an empty string/,
    );
    assert.throws(() => fillPath('/users/:id', { id: '..' }), /cannot be "\.\."/);
    assert.throws(() => fillPath('/users/:id/x', { id: '.' }), /cannot be "\."/);
    assert.throws(
      () => fillPath('/users/:id', { id: { a: 1 } }),
      /must be a string or a finite number: got \{"a":1\}/,
    );
    // Inside a segment, dots are ordinary characters.
    assert.equal(fillPath('/files/:name.json', { name: '..' }), '/files/...json');
  });

  it('refuses values that together with the text around them make a dot segment', () => {
    // URL parsers resolve `.` and `..` (and `%2e`, `.%2E`…) segments, so such a path would reach
    // another resource: `/:a:b` with `.` and `.` is `/..`.
    assert.throws(
      () => fillPath('/:a:b/items', { a: '.', b: '.' }),
      /Path parameter "a" for path "\/:a:b\/items" cannot be "\.": it makes the dot segment "\.\."/,
    );
    assert.throws(() => fillPath('/:a.', { a: '.' }), /"a" for path "\/:a\." cannot be "\."/);
    assert.throws(() => fillPath('/x/%2:a/y', { a: 'e' }), /"a" .* segment "%2e"/);
    assert.throws(() => fillPath('/x/:a%2e', { a: '.' }), /"a" .* segment "\.%2e"/);
    // Every way of filling these templates either throws or gives a path the URL parser keeps as
    // it is: no value moves the request to another path.
    const values = ['.', '..', 'e', '2e', '%2e', '.%2e', 'x', '.x', 'E'];
    const templates = ['/:a:b', '/:a:b/items', '/todos/:a/:b?', '/:a.', '/x/%2:a/:b', '/:a%2:b'];
    let filled = 0;
    for (const template of templates) {
      for (const a of values) {
        for (const b of values) {
          let path: string;
          try {
            path = fillPath(template, { a, b });
          } catch (error) {
            assert.match((error as Error).message, /dot segment/, `${template} ${a} ${b}`);
            continue;
          }
          filled++;
          const url = new URL(`https://api.test/v1${path}`);
          assert.equal(url.pathname, `/v1${path}`, `${template} with ${a}, ${b}`);
        }
      }
    }
    assert.ok(filled > 400);
  });

  it('ignores parameters the template does not name', () => {
    assert.equal(fillPath('/users/:id', { id: 1, extra: 'x' }), '/users/1');
  });
});

describe('shortenPath', () => {
  // Every row of the spec's "Shortened path" table.
  for (const [template, expected] of [
    ['/:first/:second', '/:first'],
    ['/:first', '/'],
    ['/:group/posts/:id', '/:group/posts'],
  ] as const) {
    it(`${template} → ${expected}`, () => {
      assert.equal(shortenPath(template), expected);
    });
  }

  it('keeps escaped characters escaped', () => {
    assert.equal(shortenPath('/time\\:zone/:tz/items/:id'), '/time\\:zone/:tz/items');
    assert.deepEqual(pathParams(shortenPath('/time\\:zone/:tz/items/:id')), [
      { name: 'tz', optional: false },
    ]);
  });

  it('drops the text after the last parameter too', () => {
    assert.equal(shortenPath('/users/:id/profile'), '/users');
  });

  it('keeps an optional parameter optional', () => {
    assert.equal(shortenPath('/:org?/repos/:id'), '/:org?/repos');
  });

  it('gives a clear error for a template with no parameter', () => {
    assert.throws(() => shortenPath('/todos'), /Path "\/todos" has no parameter/);
    assert.throws(() => shortenPath('/todos\\:all'), /has no parameter/);
  });
});
