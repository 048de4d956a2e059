// The package.json that goes into the tarball has no install-time script.
//
//   node scripts/pack-manifest.mjs strip     (package.json `prepack`, after the build)
//   node scripts/pack-manifest.mjs restore   (package.json `postpack`)
//
// Why: this repository's package.json has a `prepare` script, which builds dist/ when the package
// is installed from git (see scripts/prepare.mjs). Shipped in the tarball, it would do nothing
// but harm: npm 11 lists `prepare` of a package installed from a file or URL among its install
// scripts and warns every app that installs the tarball ("install scripts not yet covered by
// allowScripts"), although npm never runs it there and scripts/ is not in the tarball.
//
// npm packs package.json as it is on disk, so `strip` saves package.json as it is, byte for byte,
// and writes it without preinstall, install, postinstall and prepare; `restore`, after the tarball
// is made, puts the saved file back. A pack that stopped between the two leaves the saved copy
// behind: the next `strip` (or `restore`) puts it back first, and `git status` shows the edit
// meanwhile.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const saved = join(root, '.package.json.before-pack');
const installTime = ['preinstall', 'install', 'postinstall', 'prepare'];

function restore() {
  if (existsSync(saved)) renameSync(saved, manifest);
}

const command = process.argv[2];
if (command === 'restore') {
  restore();
} else if (command === 'strip') {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  const dropped = installTime.filter((name) => pkg.scripts && name in pkg.scripts);
  if (dropped.length > 0) {
    writeFileSync(saved, text);
    for (const name of dropped) delete pkg.scripts[name];
    writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
    console.log(`pack: package.json packed without ${dropped.join(', ')} (postpack restores it)`);
  }
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
