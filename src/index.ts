/** `resource-elements`: the core plus the Lit layer. */
export * from './core/index.js';
