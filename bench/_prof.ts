import { createArticles } from './fixtures/articles.js';
import { resourceElements as re } from './libraries/resource-elements.js';
const input = createArticles();
for (let i = 0; i < 1500; i++) re.normalize(input);
