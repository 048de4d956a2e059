// An Express API set up as Express's guide and express-validator's set one up: express.json(), a
// Router mounted at /api/todos (paths without a trailing slash), integer ids, 201 on create, 204
// on delete, express-validator's `{ errors: [...] }` with a 422 for a blank title, the total of a
// list in X-Total-Count with `?page=2&limit=10` paging, and Express's default weak ETags (with
// their 304 to a matching If-None-Match). State lives in memory: each server starts empty.
// Run: node app.mjs PORT (listens on 127.0.0.1).
import express from 'express';
import { body, matchedData, validationResult } from 'express-validator';

const todos = [];
let lastId = 0;

const router = express.Router();

/** Sends express-validator's errors with a 422, or calls the handler. */
const validated = (handler) => (req, res) => {
  const result = validationResult(req);
  if (!result.isEmpty()) return res.status(422).json({ errors: result.array() });
  return handler(req, res);
};

const find = (req, res, next) => {
  req.todo = todos.find((todo) => todo.id === Number(req.params.id));
  if (!req.todo) return res.status(404).json({ error: 'Todo not found' });
  next();
};

router.get('/', (req, res) => {
  let found = todos;
  if (req.query.completed !== undefined) {
    found = found.filter((todo) => String(todo.completed) === req.query.completed);
  }
  const limit = Number(req.query.limit) || 10;
  const page = Number(req.query.page) || 1;
  res.set('X-Total-Count', String(found.length));
  res.json(found.slice((page - 1) * limit, page * limit));
});

router.post(
  '/',
  body('title').trim().notEmpty().withMessage('Title is required'),
  body('completed').optional().isBoolean({ strict: true }),
  validated((req, res) => {
    const { title, completed = false } = matchedData(req);
    const todo = { id: ++lastId, title, completed, createdAt: new Date() };
    todos.push(todo);
    res.status(201).json(todo);
  }),
);

router.get('/:id', find, (req, res) => res.json(req.todo));

const update = (partial) => [
  find,
  partial
    ? body('title').optional().trim().notEmpty().withMessage('Title is required')
    : body('title').trim().notEmpty().withMessage('Title is required'),
  body('completed').optional().isBoolean({ strict: true }),
  validated((req, res) => {
    const changes = matchedData(req);
    if (!partial) changes.completed ??= false;
    Object.assign(req.todo, changes);
    res.json(req.todo);
  }),
];
router.put('/:id', ...update(false));
router.patch('/:id', ...update(true));

router.delete('/:id', find, (req, res) => {
  todos.splice(todos.indexOf(req.todo), 1);
  res.sendStatus(204);
});

const app = express();
app.use(express.json());
app.use('/api/todos', router);

const port = Number(process.argv[2] ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
