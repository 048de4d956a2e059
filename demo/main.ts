// The demo's entry: the library (which defines <resource-provider>) and the app element.
import '../src/index.js';
import './app.js';
