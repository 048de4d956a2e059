// Translated from reactive/data-client packages/rest/src/__tests__/hookifyResource.ts. The hooks
// are plain functions here (Lit has no hook rules); the Controller does what useSuspense and
// useController().fetch did; `useCreate` is our hooked `getList` with its `push`.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity, createResource, hookifyResource } from '../../src/core/index.js';
import { flush } from '../../src/core/controller/test-utils/fake-fetch.js';
import type { FakeServer } from '../../src/core/controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from '../../src/core/controller/test-utils/harness.js';
import { plain } from './support.js';

failOnUnhandledRejection();

class CoolerArticle extends Entity {
  id: number | undefined = undefined;
  title = '';
  content = '';
  pk() {
    return this.id;
  }
  static override key = 'CoolerArticle';
}
const CoolerArticleResource = createResource({
  urlPrefix: 'http://test.com',
  path: '/article-cooler/:id',
  schema: CoolerArticle,
  body: {} as Partial<CoolerArticle>,
});
const CoolerArticleHookResource = hookifyResource(CoolerArticleResource, () => ({}));

const id = 5;
const payload = { id, title: 'happy' };

async function answer(server: FakeServer, route: string, body: unknown, status = 200) {
  await flush();
  const request = server.take(route);
  request.respond(status, typeof body === 'function' ? body(request.body) : body);
}

describe('rest hookifyResource.ts', () => {
  describe('HookableResource endpoints', () => {
    it('useDetail', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(CoolerArticleHookResource.useGet(), { id });
      await answer(server, 'GET http://test.com/article-cooler/5', payload);
      const article = (await promise) as CoolerArticle;
      assert.ok(article instanceof CoolerArticle);
      assert.equal(article.title, payload.title);
    });

    it('useList', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(CoolerArticleHookResource.useGetList());
      await answer(server, 'GET http://test.com/article-cooler', [payload]);
      assert.deepEqual(plain(await promise), [{ ...CoolerArticle.fromJS(), ...payload }]);
    });

    it('useCreate', async () => {
      const { controller, server } = setup();
      const payload2 = { id: 20, content: 'better task' };
      const promise = controller.fetch(CoolerArticleHookResource.useGetList().push, payload2);
      await answer(server, 'POST http://test.com/article-cooler', (body: object) => body, 201);
      const article = (await promise) as CoolerArticle;
      assert.equal(article.id, 20);
      assert.equal(article.content, 'better task');
    });

    it('useDelete', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(CoolerArticleHookResource.useDelete(), { id });
      await answer(server, 'DELETE http://test.com/article-cooler/5', {});
      assert.equal(((await promise) as CoolerArticle).id, 5);
    });

    it('useUpdate', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(
        CoolerArticleHookResource.useUpdate(),
        { id },
        { ...CoolerArticle.fromJS(payload) },
      );
      await answer(server, 'PUT http://test.com/article-cooler/5', (body: object) => {
        // The reference's server insists on every field of the record.
        assert.deepEqual(Object.keys(body).sort(), ['content', 'id', 'title']);
        return { id, title: 'happy', completed: true };
      });
      assert.deepEqual(plain(await promise), {
        ...CoolerArticle.fromJS(),
        id,
        title: 'happy',
        completed: true,
      });
    });

    it('usePartialUpdate', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(
        CoolerArticleHookResource.usePartialUpdate(),
        { id },
        { title: 'happy' },
      );
      await answer(server, 'PATCH http://test.com/article-cooler/5', (body: object) => {
        assert.deepEqual(body, { title: 'happy' });
        return { id, title: 'happy', completed: false };
      });
      assert.equal(((await promise) as CoolerArticle).title, 'happy');
    });

    it('should use useFetchInit if defined (in endpoint method)', (t) => {
      const useFetchInit = t.mock.fn(() => ({}));
      const FetchResource = hookifyResource(CoolerArticleResource, useFetchInit);
      const articleDetail = FetchResource.useGet();
      assert.ok(articleDetail);
      assert.ok(useFetchInit.mock.callCount() > 0);
    });
  });
});
