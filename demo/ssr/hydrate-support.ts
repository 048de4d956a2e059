// Lit's hydration support: loaded by its own module script before anything imports Lit, so that
// LitElement picks it up and reuses the server's shadow roots instead of rendering anew.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
// Then the store's hydration (no Lit in it), so <resource-provider> takes the server's store from
// its state script as it upgrades.
import '../../src/hydration/index.js';
