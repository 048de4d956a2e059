/**
 * `resource-elements/core`: the DOM-free part of resource-elements. It runs in Node and in any
 * browser; nothing here imports Lit or touches the DOM.
 */
export { fillPath, parsePath, pathParams, shortenPath } from './rest/path.js';
export type { PathArgs, PathKeys, PathParam, PathToken, PathValue } from './rest/path.js';
