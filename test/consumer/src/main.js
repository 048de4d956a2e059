// The app's entry, as the README teaches: a bare import defines <resource-provider>.
import 'resource-elements';
import './item-list.js';
