// Server text rendered by Lit never becomes markup: titles, error bodies and attribute values that
// look like HTML show as text, and no script in them runs.
import { expect } from '@open-wc/testing';
import { LitElement, html } from 'lit';
import { http, HttpResponse } from 'msw';
import { useHandlers } from '../browser/msw.js';
import { Controller } from '../../src/core/controller/controller.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import { ResourceController } from '../../src/lit/resource-controller.js';
import { textOf, until } from '../../src/lit/test-utils/reader.js';
import { failOnUnhandledRejection, mount, sleep, storedData } from './browser-support.js';

class Post extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static key = 'RelBrowserPost';
}

const getPost = new RestEndpoint({ path: '/mock/reliability/posts/:id', schema: Post });

const PAYLOADS = [
  '<img src=x onerror="window.__pwned = (window.__pwned || 0) + 1">',
  '<script>window.__pwned = (window.__pwned || 0) + 1</script>',
  '"><svg onload="window.__pwned = (window.__pwned || 0) + 1">',
  '<!-- comment --><b>bold</b>',
  '{{constructor.constructor("window.__pwned = 1")()}}',
];

/** Shows a post's title as text, in an attribute and in a property, the ways apps do. */
class PostView extends LitElement {
  postId = '';
  readonly post = new ResourceController(this, getPost, () => ({ id: this.postId }));
  protected override createRenderRoot() {
    return this;
  }
  override render() {
    return this.post.render({
      pending: () => html`<p class="pending">…</p>`,
      complete: (post) =>
        html`<h2 class="title" title=${post.title}>${post.title}</h2>
          <input class="input" .value=${post.title} />`,
      error: (error) => html`<p class="error">${(error as Error).message}</p>`,
    });
  }
}
customElements.define('rel-post-view', PostView);

function view(id: string): PostView {
  const element = document.createElement('rel-post-view') as PostView;
  element.postId = id;
  return element;
}

const pwned = () => (window as unknown as { __pwned?: number }).__pwned;

describe('reliability (browser): server text never becomes markup', () => {
  failOnUnhandledRejection();

  PAYLOADS.forEach((payload, index) => {
    it(`a title ${JSON.stringify(payload.slice(0, 24))}… shows as text`, async () => {
      await useHandlers(
        http.get('/mock/reliability/posts/:id', ({ params }) =>
          HttpResponse.json({ id: params.id, title: payload }),
        ),
      );
      const controller = new Controller();
      const element = view(`p${index}`);
      await mount(controller, element);
      await until(() => expect(element.post.status).to.equal('complete'));
      await element.updateComplete;
      const title = element.querySelector('.title')!;
      expect(title.textContent).to.equal(payload);
      expect(title.getAttribute('title')).to.equal(payload);
      expect((element.querySelector('.input') as HTMLInputElement).value).to.equal(payload);
      for (const tag of ['img', 'script', 'svg', 'b']) {
        expect(element.querySelector(tag), `no <${tag}> was made`).to.equal(null);
      }
      await sleep(30);
      expect(pwned()).to.equal(undefined);
      // A later good request still works.
      await controller.fetch(getPost, { id: 'next' });
      expect(controller.getResponse(getPost, { id: 'next' }).data?.title).to.equal(payload);
    });
  });

  it('an error body with markup shows as text in the error template', async () => {
    const payload = '<img src=x onerror="window.__pwned = 1">';
    await useHandlers(
      http.get('/mock/reliability/posts/:id', () =>
        HttpResponse.json({ message: payload }, { status: 500 }),
      ),
    );
    const controller = new Controller();
    controller.setResponse(getPost, { id: 'kept' }, { id: 'kept', title: 'kept' });
    const before = storedData(controller);
    const element = view('bad');
    await mount(controller, element);
    await until(() => expect(element.post.status).to.equal('error'));
    await element.updateComplete;
    expect(textOf(element.querySelector('.error')!)).to.contain(payload);
    expect(element.querySelector('img')).to.equal(null);
    await sleep(30);
    expect(pwned()).to.equal(undefined);
    expect(storedData(controller)).to.equal(before);
  });
});
