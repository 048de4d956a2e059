// Makes sure the real frameworks' servers the tests of test/real-apis start can run: Django REST
// Framework, django-filter, FastAPI, uvicorn and python-multipart for Debian's /usr/bin/python3,
// and Rails 6.1 with sqlite3 for Debian's /usr/bin/ruby (Express comes from npm). On a Debian
// machine, running as root, it installs the missing ones with one apt-get (about a minute); anywhere
// else it says how in one line, and the tests of those servers are skipped (in CI, CI=true, they
// fail instead).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';

const PYTHON = '/usr/bin/python3';
const RUBY = '/usr/bin/ruby';
const RACKUP = '/usr/bin/rackup';
const python = [
  'python3-djangorestframework',
  'python3-django-filters',
  'python3-fastapi',
  'python3-uvicorn',
  'python3-multipart',
];
const ruby = ['ruby-rails', 'ruby-sqlite3'];
const pythonFound = () =>
  existsSync(PYTHON) &&
  spawnSync(PYTHON, ['-c', 'import rest_framework, django_filters, fastapi, uvicorn, multipart'])
    .status === 0;
const rubyFound = () =>
  existsSync(RUBY) &&
  existsSync(RACKUP) &&
  spawnSync(RUBY, [
    '-e',
    'require "rails"; require "active_record/railtie"; require "sqlite3"; require "webrick"',
  ]).status === 0;

const packages = [...(pythonFound() ? [] : python), ...(rubyFound() ? [] : ruby)];
if (packages.length === 0) {
  console.log('frameworks: DRF and FastAPI found for /usr/bin/python3, Rails for /usr/bin/ruby');
  process.exit(0);
}
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get']).status === 0;
if (!isRoot || !hasApt) {
  const how = `apt-get install ${packages.join(' ')}`;
  console.log(`frameworks: not installed; their real-API tests are skipped (${how})`);
  process.exit(process.env.CI ? 1 : 0);
}
console.log(`frameworks: installing Debian's ${packages.join(' ')} with apt-get...`);
mkdirSync('.test-results', { recursive: true });
const started = Date.now();
const result = spawnSync(
  'sh',
  [
    '-c',
    `apt-get update -qq -o DPkg::Lock::Timeout=300 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 ${packages.join(' ')}`,
  ],
  { encoding: 'utf8' },
);
writeFileSync('.test-results/apt-get-frameworks.log', `${result.stdout}\n${result.stderr}`);
const missing = [
  ...(pythonFound() ? [] : ['DRF/FastAPI for /usr/bin/python3']),
  ...(rubyFound() ? [] : ['Rails for /usr/bin/ruby']),
];
if (result.status !== 0 || missing.length > 0) {
  console.log(
    `frameworks: apt-get install failed (exit ${result.status}; still missing: ${missing.join(', ') || 'nothing'}); see .test-results/apt-get-frameworks.log`,
  );
  process.exit(process.env.CI ? 1 : 0);
}
console.log(`frameworks: installed in ${Math.round((Date.now() - started) / 1000)} s`);
