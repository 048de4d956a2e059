// The package test: what `npm pack` and `npm publish` make from a fresh clone, where no dist/ has
// been built. It clones this repository (HEAD, then your uncommitted edits of tracked files on top,
// as a commit would bring them; untracked and ignored files stay behind) into a temporary folder,
// links this checkout's node_modules into it, and there:
//
// 1. `npm pack`: its `prepack` builds dist/ (without it the tarball has no code and no error),
//    packs package.json without install-time scripts and leaves package.json as it was.
//    The tarball must hold exactly what a user needs: package.json, README.md, LICENSE,
//    CHANGELOG.md, custom-elements.json and dist/'s .js and .d.ts files (no sources, tests, test
//    helpers or source maps), including every file package.json points at, and CHANGELOG.md
//    must have a section for package.json's version;
// 2. `npm publish --dry-run` must list the same files (--ignore-scripts: step 1 just built, and
//    publish's build is the same `prepack`);
// 3. installs the tarball into an empty folder: npm warns of no install script (npm 11's
//    allowScripts review) and the installed package.json has none (preinstall, install,
//    postinstall, prepare); imports `resource-elements/core` in Node, and type-checks an import of
//    every entry under `moduleResolution: node10` (package.json `typesVersions`; node10 ignores
//    `exports`).
//
//   node scripts/test-package.mjs [--git] [--keep]
//
// --git also installs the clone as a git dependency (`npm install git+file://…`), twice (about a
// minute each: npm installs every devDependency in its own clone first, then `prepare` builds):
// unapproved, npm asks about resource-elements' `prepare` and nothing else; approved in the app's
// allowScripts, it is quiet; either way dist/ is built and imports in Node.
// --keep leaves the temporary folder. Counts go to .test-results/package-test.json.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChecked, timed } from './counts-reporter.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const started = Date.now();

const env = {
  ...process.env,
  PUPPETEER_SKIP_DOWNLOAD: '1',
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

const run = (command, commandArgs, cwd) => runChecked(command, commandArgs, cwd, env);

/** npm's --json answer, after whatever the lifecycle scripts printed to stdout before it. */
function jsonAtEnd(stdout) {
  const start = stdout.search(/^[[{]$/m);
  if (start < 0) throw new Error(`no JSON in npm's output:\n${stdout}`);
  return JSON.parse(stdout.slice(start));
}

/** The lines in which npm 11 asks for install scripts to be reviewed (its allowScripts policy). */
const scriptWarnings = ({ stdout, stderr }) =>
  `${stdout}\n${stderr}`.split('\n').filter((line) => /install-scripts|allowScripts/.test(line));

/** The lifecycle scripts npm runs when it installs a package (prepare: from git, a folder or a file). */
const installTimeScripts = ['preinstall', 'install', 'postinstall', 'prepare'];

const results = [];
function check(name, ok, detail = '') {
  results.push({ name, ok });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
}

const work = mkdtempSync(join(tmpdir(), 'resource-elements-package-'));
const clone = join(work, 'clone');
console.log(`package test in ${work}`);
try {
  // --- 1. a fresh clone -------------------------------------------------------------------------
  const head = run('git', ['rev-parse', '--short', 'HEAD'], root).stdout.trim();
  run('git', ['clone', '--quiet', root, clone], work);
  const edited = run('git', ['diff', '--name-only', '-z', 'HEAD'], root)
    .stdout.split('\0')
    .filter(Boolean);
  for (const file of edited) {
    if (existsSync(join(root, file))) cpSync(join(root, file), join(clone, file));
    else rmSync(join(clone, file), { force: true });
  }
  console.log(
    `  clone of ${head}${edited.length ? ` with ${edited.length} uncommitted edit(s) on top` : ''}`,
  );
  check(
    'the clone has no dist/ and no custom-elements.json',
    !existsSync(join(clone, 'dist')) && !existsSync(join(clone, 'custom-elements.json')),
  );
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');

  // --- 2. npm pack ------------------------------------------------------------------------------
  const manifestBefore = readFileSync(join(clone, 'package.json'), 'utf8');
  const packed = jsonAtEnd(
    timed('npm pack (prepack builds)', () =>
      run('npm', ['pack', '--json', '--pack-destination', work], clone),
    ).stdout,
  )[0];
  const tarball = join(work, packed.filename);
  check(
    'npm pack leaves package.json as it was',
    readFileSync(join(clone, 'package.json'), 'utf8') === manifestBefore,
  );
  const shipped = packed.files.map((file) => file.path);
  console.log(`  ${packed.filename}: ${shipped.length} files, ${packed.size} B packed`);

  const pkg = JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8'));
  const exported = Object.values(pkg.exports).flatMap((target) =>
    typeof target === 'string' ? [target] : [target.types, target.default],
  );
  const typesVersions = Object.values(pkg.typesVersions ?? {}).flatMap((paths) =>
    Object.values(paths).flat(),
  );
  const pointedAt = [pkg.main, pkg.types, pkg.customElements, ...exported, ...typesVersions]
    .filter(Boolean)
    .map((file) => file.replace(/^\.\//, ''));
  const missing = [...new Set(pointedAt)].filter((file) => !shipped.includes(file));
  check(
    'the tarball of a fresh clone holds the code: every file package.json points at',
    missing.length === 0,
    missing.length ? `missing: ${missing.join(', ')}` : `${new Set(pointedAt).size} paths`,
  );
  const topLevel = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'custom-elements.json'];
  const expected = (file) =>
    topLevel.includes(file) ||
    (/^dist\/.+\.(js|d\.ts)$/.test(file) && !/\.test(-d)?\.|(^|\/)test-utils\//.test(file));
  const unexpected = shipped.filter((file) => !expected(file));
  const absent = topLevel.filter((file) => !shipped.includes(file));
  check(
    'the tarball holds only what a user needs (package.json, README.md, LICENSE, CHANGELOG.md, custom-elements.json, dist/**/*.js and .d.ts)',
    unexpected.length === 0 && absent.length === 0,
    [
      unexpected.length ? `unexpected: ${unexpected.join(', ')}` : '',
      absent.length ? `absent: ${absent.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; '),
  );

  const changelog = existsSync(join(clone, 'CHANGELOG.md'))
    ? readFileSync(join(clone, 'CHANGELOG.md'), 'utf8')
    : '';
  check(
    `CHANGELOG.md has a section for version ${pkg.version}`,
    new RegExp(`^## \\[?${pkg.version.replaceAll('.', '\\.')}\\b`, 'm').test(changelog),
  );

  // --- 3. npm publish --dry-run -----------------------------------------------------------------
  const published = jsonAtEnd(
    timed('npm publish --dry-run', () =>
      run('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], clone),
    ).stdout,
  );
  // npm 11 keys the answer by the package's name; older npm gave the package itself.
  const publishedFiles = (published.files ? published : Object.values(published)[0]).files.map(
    (file) => file.path,
  );
  const differ = [
    ...publishedFiles.filter((file) => !shipped.includes(file)),
    ...shipped.filter((file) => !publishedFiles.includes(file)),
  ];
  check(
    'npm publish --dry-run lists the same files as the tarball',
    differ.length === 0,
    differ.length ? `differ: ${differ.join(', ')}` : `${publishedFiles.length} files`,
  );

  // --- 4. install the tarball and use it ----------------------------------------------------------
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'package-test-app', private: true, type: 'module' }),
  );
  // No peers: resource-elements/core needs none, and the install stays offline-friendly.
  const tarballInstall = timed('npm install (the tarball)', () =>
    run('npm', ['install', '--prefer-offline', '--omit=peer', '--no-package-lock', tarball], app),
  );
  // The installed package.json is the tarball's own (npm writes it unchanged).
  const installedScripts =
    JSON.parse(readFileSync(join(app, 'node_modules/resource-elements/package.json'), 'utf8'))
      .scripts ?? {};
  const installTime = installTimeScripts.filter((name) => name in installedScripts);
  check(
    `the packed package.json has no install-time script (${installTimeScripts.join(', ')})`,
    installTime.length === 0,
    installTime.map((name) => `${name}: ${installedScripts[name]}`).join('; '),
  );
  const tarballWarnings = scriptWarnings(tarballInstall);
  check(
    'installing the tarball prints no install-script warning (npm 11 allowScripts)',
    tarballWarnings.length === 0,
    tarballWarnings.join(' | '),
  );
  const probe = [
    "const core = await import('resource-elements/core');",
    "const path = core.fillPath('/todos/:id', { id: 7 });",
    "if (path !== '/todos/7') throw new Error('fillPath gave ' + path);",
    "if (typeof core.Controller !== 'function') throw new Error('no Controller');",
    'console.log(Object.keys(core).length);',
  ].join('\n');
  const imported = spawnSync(process.execPath, ['--input-type=module', '-e', probe], {
    cwd: app,
    env,
    encoding: 'utf8',
  });
  check(
    "the installed tarball: import('resource-elements/core') works in Node",
    imported.status === 0,
    imported.status === 0
      ? `${imported.stdout.trim()} exports`
      : imported.stderr.trim().split('\n').slice(0, 3).join(' | '),
  );

  // Types under moduleResolution node10 (TypeScript before 4.7's node16, and many older set-ups),
  // which reads `types` and `typesVersions`, not `exports`. No peers are installed: skipLibCheck
  // leaves the declarations' own imports of lit alone; an entry that does not resolve is an error.
  const entries = Object.keys(pkg.exports)
    .filter((subpath) => subpath !== './package.json')
    .map((subpath) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
  writeFileSync(
    join(app, 'node10.ts'),
    entries.map((entry, index) => `import type * as entry${index} from '${entry}';\n`).join('') +
      `export type Entries = [${entries.map((_, index) => `typeof entry${index}`).join(', ')}];\n`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        module: 'commonjs',
        moduleResolution: 'node10',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['node10.ts'],
    }),
  );
  const node10 = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'],
    { cwd: app, env, encoding: 'utf8' },
  );
  check(
    `every entry's types resolve under moduleResolution node10 (${entries.length} entries)`,
    node10.status === 0,
    `${node10.stdout}${node10.stderr}`.trim().split('\n').slice(0, 12).join(' | '),
  );

  // --- 5. optionally, as a git dependency -------------------------------------------------------
  if (args.includes('--git')) {
    run('git', ['add', '--all', '--', '.', ':!node_modules'], clone);
    run(
      'git',
      [
        '-c',
        'user.name=package test',
        '-c',
        'user.email=test@localhost',
        'commit',
        '--allow-empty',
        '-qm',
        'uncommitted edits',
      ],
      clone,
    );
    rmSync(join(clone, 'node_modules'));
    const gitApp = join(work, 'git-app');
    const gitUrl = `git+file://${clone}`;
    mkdirSync(gitApp);
    writeFileSync(
      join(gitApp, 'package.json'),
      JSON.stringify({ name: 'package-test-git-app', private: true, type: 'module' }),
    );
    const gitInstall = timed('npm install git+file://… (prepare builds in npm’s clone)', () =>
      run(
        'npm',
        ['install', '--prefer-offline', '--omit=peer', '--no-package-lock', gitUrl],
        gitApp,
      ),
    );
    // From git, the package is built where it is installed: `prepare` is an install script there,
    // which npm 11 asks the app to review. It must be the only one, and approving it (the app's
    // allowScripts, keyed by the git URL) must quiet npm.
    const gitWarnings = scriptWarnings(gitInstall);
    const asked = gitWarnings.filter((line) => /@\d/.test(line));
    check(
      "installed from git: the only install script npm asks about is resource-elements' prepare",
      asked.length === 1 && /resource-elements@[^ ]+ \(prepare: [^;]+\)$/.test(asked[0]),
      gitWarnings.join(' | ') || 'no warning',
    );
    const gitManifest = JSON.parse(readFileSync(join(gitApp, 'package.json'), 'utf8'));
    gitManifest.allowScripts = { [gitUrl]: true };
    writeFileSync(join(gitApp, 'package.json'), JSON.stringify(gitManifest));
    // Afresh: npm reviews install scripts only when it installs something.
    rmSync(join(gitApp, 'node_modules'), { recursive: true, force: true });
    const approvedInstall = timed(
      'npm install git+file://… again, its build approved in allowScripts',
      () => run('npm', ['install', '--prefer-offline', '--omit=peer', '--no-package-lock'], gitApp),
    );
    const approvedWarnings = scriptWarnings(approvedInstall);
    check(
      'installed from git with its build approved in allowScripts: npm prints no install-script warning',
      approvedWarnings.length === 0,
      approvedWarnings.join(' | '),
    );
    check(
      'installed from git: dist/ was built in npm’s clone',
      existsSync(join(gitApp, 'node_modules/resource-elements/dist/index.js')),
    );
    const fromGit = spawnSync(process.execPath, ['--input-type=module', '-e', probe], {
      cwd: gitApp,
      env,
      encoding: 'utf8',
    });
    check(
      "installed from git: import('resource-elements/core') works in Node",
      fromGit.status === 0,
      fromGit.stderr.trim().split('\n').slice(0, 3).join(' | '),
    );
  }
} catch (error) {
  check(
    'the package test ran to its end',
    false,
    error.message.split('\n').slice(0, 12).join('\n'),
  );
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
mkdirSync(join(root, '.test-results'), { recursive: true });
writeFileSync(
  join(root, '.test-results/package-test.json'),
  JSON.stringify({ passed, failed, skipped: 0 }),
);
console.log(
  `\npackage: ${passed} passed, ${failed} failed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
if (args.includes('--keep')) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
process.exit(failed === 0 ? 0 : 1);
