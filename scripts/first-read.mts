// Which src files run during one first read (observe -> fetch -> commit -> read), by V8 precise
// coverage: the files a first read crosses (docs/design.md, "The read path").
//   node --conditions=resource-elements-source --import tsx scripts/first-read.mts
import { Session } from 'node:inspector/promises';
import { Controller, Entity, createResource } from 'resource-elements';
class Todo extends Entity {
  id = '';
  title = '';
  completed = false;
  pk() {
    return this.id;
  }
  static key = 'Todo';
}
const TodoResource = createResource({ path: '/todos/:id', schema: Todo });
const fetch = async () =>
  new Response(JSON.stringify([{ id: '1', title: 'a', completed: false }]), {
    headers: { 'content-type': 'application/json' },
  });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
const controller = new Controller({ fetch: fetch as typeof globalThis.fetch });
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const observer = controller.observe(TodoResource.getList);
await new Promise<void>((resolve) => {
  const stop = observer.subscribe(() => {
    if (observer.result.data) {
      stop();
      resolve();
    }
  });
});
const { result } = await session.post('Profiler.takePreciseCoverage');
const files = new Map<string, number>();
for (const script of result) {
  const m = /\/src\/(.*\.ts)/.exec(script.url);
  if (!m) continue;
  const called = script.functions.filter(
    (f) => f.ranges[0]!.count > 0 && f.functionName !== '',
  ).length;
  if (called > 0) files.set(m[1]!, called);
}
console.log(`${files.size} src files ran functions during the first read:`);
for (const [f, n] of [...files].sort()) console.log(`  ${f} (${n} functions)`);
console.log(JSON.stringify(observer.result.data));
