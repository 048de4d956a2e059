// The demo's entry: the managers behind the provider's attributes first, then the library (which
// defines <resource-provider>) and the app element.
import './live-setup.js';
import '../src/index.js';
import './app.js';
