// The render benchmark's limit (bench/render/limit-app.ts) must do the same screen work as the
// libraries it bounds, or its times mean nothing: it shows the whole list, and after each
// mutation the server's answer, touching only the row concerned.
import { expect } from '@open-wc/testing';
import { rowElementId } from '../bench/render/app.js';
import { installFakeServer, seed, server } from '../bench/render/fake-server.js';
import { since, snapshot } from '../bench/render/instrument.js';
import { limitApp } from '../bench/render/limit-app.js';

type Updatable = HTMLElement & { updateComplete: Promise<boolean> };

describe('bench/render/limit-app.ts', () => {
  let list: Updatable;
  const app = limitApp();
  const row = (id: string) => list.shadowRoot!.getElementById(rowElementId(id)) as Updatable | null;
  const title = (id: string) => row(id)?.shadowRoot?.querySelector('.title')?.textContent;
  const settled = async () => {
    await list.updateComplete;
    await Promise.all([...list.shadowRoot!.children].map((el) => (el as Updatable).updateComplete));
  };

  before(async () => {
    installFakeServer(0);
    seed(20);
    list = app.mount(document.body) as Updatable;
    for (let i = 0; i < 100 && list.shadowRoot?.children.length !== 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await settled();
  });

  after(() => list.remove());

  it('loads the list from the fake server', () => {
    expect(list.shadowRoot!.children.length).to.equal(20);
    expect(title('20')).to.equal('item 20');
    expect(server.log).to.deep.equal(['GET /items']);
  });

  it('update: the answer reaches its one row, and the list does not render', async () => {
    const before = snapshot();
    await app.update('7', 'renamed');
    await settled();
    expect(title('7')).to.equal('renamed');
    expect(since(before)).to.deep.include({ rows: 1, listRenders: 0 });
    expect(server.log.at(-1)).to.equal('PATCH /items/7');
  });

  it('create: the answer is appended as one new row', async () => {
    const before = snapshot();
    await app.create('new one');
    await settled();
    expect(title(server.lastCreatedId!)).to.equal('new one');
    expect(list.shadowRoot!.children.length).to.equal(21);
    expect(since(before)).to.deep.include({ rows: 1, listRenders: 1 });
  });

  it('delete: the row goes, no other row renders', async () => {
    const before = snapshot();
    await app.remove('3');
    await settled();
    expect(row('3')).to.equal(null);
    expect(list.shadowRoot!.children.length).to.equal(20);
    expect(since(before)).to.deep.include({ rows: 0, listRenders: 1 });
  });
});
