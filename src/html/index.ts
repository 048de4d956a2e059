/**
 * `resource-elements/html`: reads in plain HTML. `registerReads({ todos: TodoResource.getList })`
 * names endpoints; `<resource-read endpoint="todos" param-user-id="1">` reads one through the
 * nearest `<resource-provider>` and shows it with the `<template>`s it holds, filled by field path.
 * Importing this module defines the element. It imports no Lit itself.
 * @example
 * import { registerReads } from 'resource-elements/html';
 * registerReads({ todos: TodoResource.getList });
 * @module resource-elements/html
 */
import { ResourceReadElement } from './resource-read.js';

export { ResourceReadElement };
export { registerReads } from './reads.js';

if (!customElements.get('resource-read')) {
  customElements.define('resource-read', ResourceReadElement);
}
