// package.json `prepare`. npm runs it in two different situations, and only one needs a build:
//
// - `npm install` (or `npm ci`, `npm pack`, `npm publish`) in this checkout: npm's local prefix is
//   this folder. Nothing to do: `npm run build` builds dist/ when you want it, `npm pack` and
//   `npm publish` build through `prepack`, and an install that builds (13 s, and fails on a type
//   error) would slow every `npm install` down and block it while the code does not compile.
// - A git dependency (`npm install github:owner/resource-elements`, `git+https://…`): npm clones
//   the repository, installs its devDependencies there, then runs `prepare` from the project that
//   asked for it (its local prefix is that project) and packs the folder. dist/ is made here, or
//   the installed package has no code.
//
// A package manager that sets no npm_config_local_prefix gets the build: better slow than empty.
//
// `prepare` is the only script npm runs in its clone of a git dependency that can build there: it
// does not run `prepack` for one (npm/pacote#257), so without this script an app installing from
// git gets no dist/. npm 11 counts this `prepare` as an install script of a git dependency and asks
// the app to review it (allowScripts): building is what installing from git means. The tarball
// (`npm pack`, `npm publish`) is packed without it (scripts/pack-manifest.mjs), so an app that
// installs a tarball or the published package has no install script to review.
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = realpathSync(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
const prefix = process.env.npm_config_local_prefix;

function real(path) {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

if (prefix && real(prefix) === root) {
  console.log('prepare: a development checkout, nothing to build (`npm run build` makes dist/).');
  process.exit(0);
}

console.log('prepare: installed from git, building dist/ (npm run build).');
const npm = process.env.npm_execpath;
const result = npm
  ? spawnSync(process.execPath, [npm, 'run', 'build'], { cwd: root, stdio: 'inherit' })
  : spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit', shell: true });
process.exit(result.status ?? 1);
