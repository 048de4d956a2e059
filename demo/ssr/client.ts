// The server-rendered page's client: the library first (it defines <resource-provider>, which
// takes the server's store from its script as it upgrades), then the elements, which hydrate.
import '../../src/index.js';
import '../todo-board.js';
import '../error-panel.js';
import '../clock-widget.js';
