// Proves the browser rig end to end: the same path rules, compiled by esbuild, run in each
// browser engine.
import { expect } from '@open-wc/testing';
import { fillPath, shortenPath } from './path.js';

describe('path templates in the browser', () => {
  it('shortens every template of the spec table', () => {
    expect(shortenPath('/:first/:second')).to.equal('/:first');
    expect(shortenPath('/:first')).to.equal('/');
    expect(shortenPath('/:group/posts/:id')).to.equal('/:group/posts');
  });

  it('builds a URL whose path the browser parses to the same segments', () => {
    const path = fillPath('/:group/posts/:id', { group: '../x', id: 'a?b#c' });
    const url = new URL(path, 'http://example.test');
    expect(url.pathname.split('/')).to.deep.equal(['', '..%2Fx', 'posts', 'a%3Fb%23c']);
    expect(url.search).to.equal('');
    expect(url.hash).to.equal('');
  });
});
