// Lit's hydration support: loaded by its own module script before anything imports Lit, so that
// LitElement picks it up and reuses the server's shadow roots instead of rendering anew.
import '@lit-labs/ssr-client/lit-element-hydrate-support.js';
