// Another visitor of the demo (see visitor-frame.html): the error panel, which reads
// /api/unstable as soon as it is on the page.
import '../../src/index.js';
import '../../demo/error-panel.js';

const provider = document.createElement('resource-provider');
provider.innerHTML = '<demo-error-panel></demo-error-panel>';
document.body.append(provider);
