// An entry that imports the package and its optional entries for their side effects alone:
// <resource-provider>, <resource-boundary> and <resource-devtools> must still be defined in a
// production bundle.
import 'resource-elements';
import 'resource-elements/boundary';
import 'resource-elements/devtools';

const defined = (name) => (customElements.get(name) ? 'defined' : 'missing');
document.body.dataset.boundary = defined('resource-boundary');
document.body.dataset.devtools = defined('resource-devtools');
document.body.dataset.provider = defined('resource-provider');
