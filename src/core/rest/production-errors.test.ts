// Request errors in a production build keep the facts (method, URL, status, parameter, what was
// given) and leave the explanations to development, where they are shown in full.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TimeoutError } from '../errors.js';
import { Entity } from '../schema/entity.js';
import { createResource } from './create-resource.js';
import { RestEndpoint } from './rest-endpoint.js';

class Todo extends Entity {
  id = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

/** The message of what `make` throws or rejects with, with NODE_ENV set to `mode`. */
async function messageIn(mode: string, make: () => unknown): Promise<string> {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = mode;
  try {
    await make();
  } catch (error) {
    return (error as Error).message;
  } finally {
    process.env.NODE_ENV = saved;
  }
  return 'no error';
}

const get = new RestEndpoint({ urlPrefix: 'https://api.test', path: '/todos' });
const cases: { make: () => unknown; production: string; advice: string }[] = [
  {
    make: () => {
      throw new TimeoutError({ method: 'GET', url: 'https://api.test/todos', timeout: 50 });
    },
    production: 'GET https://api.test/todos timed out after 50 ms',
    advice: " (the endpoint's timeout)",
  },
  {
    make: () => get.url({ filter: { done: true } }),
    production:
      'Query parameter "filter" for path "/todos" (GET) must be a query value: got object.',
    advice: 'a string, number, boolean, Date or an array of them',
  },
  {
    make: () =>
      (createResource({ path: '/todos/:id', schema: Todo }).extend as (x: unknown) => unknown)(5),
    production: 'extend got number.',
    advice: 'it takes (name, options), ({ member: options }) or (base => members)',
  },
  {
    make: () =>
      get.parseResponse(
        new Response('<html>home</html>', { headers: { 'Content-Type': 'text/html' } }),
        { method: 'GET', url: 'https://api.test/todos' },
      ),
    production:
      'GET https://api.test/todos answered 200 with Content-Type "text/html": expected JSON. The body starts with "<html>home</html>"',
    advice: 'is the URL right, or does the server send the wrong Content-Type?',
  },
];

describe('request errors in a production build', () => {
  for (const { make, production, advice } of cases) {
    it(`keep the facts, not the advice: ${production}`, async () => {
      assert.equal(await messageIn('production', make), production);
      const development = await messageIn('development', make);
      assert.ok(development.includes(advice), development);
      assert.ok(!production.includes(advice));
    });
  }
});
