// An entry that imports the package for its side effect alone: <resource-provider> must still be
// defined in a production bundle.
import 'resource-elements';

document.body.dataset.provider = customElements.get('resource-provider') ? 'defined' : 'missing';
