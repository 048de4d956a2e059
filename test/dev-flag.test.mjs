// The development flag's transform (scripts/dev-flag.mjs): each `DEV()` of a src/ module becomes
// the inline NODE_ENV test in what is built or bundled, and a flag not declared or used as it must
// be fails the build, named. Then a production bundle of src/ (scripts/size.mjs's settings) has
// no flag left and none of the development-only text, which a development bundle keeps.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { build } from 'esbuild';
import ts from 'typescript';
import { devFlagRollup, devTest, inlineDevFlag } from '../scripts/dev-flag.mjs';
import { ours, settings } from '../scripts/size.mjs';

const root = new URL('..', import.meta.url);
const declaration = `function DEV(): boolean {\n  return ${devTest};\n}\n`;

describe('inlineDevFlag', () => {
  it('drops the declaration and writes the test at each call', () => {
    const code = [
      "import { x } from './x.js';",
      declaration,
      'export function f(): string {',
      "  if (DEV()) console.warn('dev');",
      "  return `x${DEV() ? ': advice' : ''}`;",
      '}',
      '',
    ].join('\n');
    assert.equal(
      inlineDevFlag(code, 'src/f.ts'),
      [
        "import { x } from './x.js';",
        '',
        'export function f(): string {',
        `  if (${devTest}) console.warn('dev');`,
        `  return \`x\${${devTest} ? ': advice' : ''}\`;`,
        '}',
        '',
      ].join('\n'),
    );
  });

  it('reads the declaration as the TypeScript compiler emits it', () => {
    const source = `${declaration}export const f = (): boolean => DEV() && Math.random() > 1;\n`;
    const emitted = ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
    assert.match(emitted, /DEV\(\)/);
    assert.equal(
      inlineDevFlag(emitted, 'src/f.ts'),
      `export const f = () => ${devTest} && Math.random() > 1;\n`,
    );
  });

  it('puts the test in parentheses where an operator around it binds tighter', () => {
    const out = (line) =>
      inlineDevFlag(`${declaration}${line}\n`, 'src/f.ts').replace(devTest, 'T').trim();
    assert.equal(out('const a = !DEV();'), 'const a = !(T);');
    assert.equal(out('const a = DEV() === b;'), 'const a = (T) === b;');
    assert.equal(out('const a = 1 + DEV();'), 'const a = 1 + (T);');
    assert.equal(out('const a = DEV() || b;'), 'const a = T || b;');
    assert.equal(out('const a = b ? DEV() : c;'), 'const a = b ? T : c;');
    assert.equal(out('const a = () => DEV();'), 'const a = () => T;');
    assert.equal(out('const a = b >= DEV();'), 'const a = b >= (T);');
    assert.equal(out('if (\n  // why\n  DEV() && b\n) f();'), 'if (\n  // why\n  T && b\n) f();');
    assert.equal(out('if (/* why */ DEV()) f();'), 'if (/* why */ T) f();');
  });

  it('leaves a module without the flag as it is', () => {
    const code = 'const DEV_MODE = true;\nexport const isDEV = () => DEV_MODE && x.DEV();\n';
    assert.equal(inlineDevFlag(code, 'src/f.ts'), code);
  });

  it('fails, naming the module and line, on a declaration of another shape', () => {
    for (const wrong of [
      "const DEV = process.env.NODE_ENV !== 'production';",
      `const DEV = (): boolean => ${devTest};`,
      "function DEV() {\n  return process.env.NODE_ENV !== 'production';\n}",
      `function DEV() {\n  if (${devTest}) return true;\n  return false;\n}`,
      `export function DEV(): boolean {\n  return ${devTest};\n}`,
      `  function DEV(): boolean {\n    return ${devTest};\n  }`,
    ]) {
      assert.throws(
        () => inlineDevFlag(`import { x } from './x.js';\n${wrong}\nf(DEV());\n`, 'src/a/b.ts'),
        /^Error: src\/a\/b\.ts:2: DEV is not declared in the one shape/,
        wrong,
      );
    }
  });

  it('fails on a second declaration and on DEV used other than as a call', () => {
    assert.throws(
      () => inlineDevFlag(`${declaration}f(DEV());\n${declaration}`, 'src/c.ts'),
      /^Error: src\/c\.ts:5: DEV is declared 2 times/,
    );
    for (const [use, line] of [
      ['const dev = DEV;', 4],
      ['if (DEV ()) f();', 4],
      ['// DEV, in a comment', 4],
    ]) {
      assert.throws(
        () => inlineDevFlag(`${declaration}${use}\n`, 'src/c.ts'),
        new RegExp(`^Error: src/c\\.ts:${line}: DEV other than as the call DEV\\(\\)`),
        use,
      );
    }
  });

  it('fails the rollup build through the plugin', () => {
    const plugin = devFlagRollup();
    const context = {
      error(message) {
        throw new Error(`rollup: ${message}`);
      },
    };
    const id = new URL('src/core/example.ts', root).pathname;
    assert.throws(
      () => plugin.transform.call(context, 'f(DEV());\n', id),
      /^Error: rollup: src\/core\/example\.ts:1: DEV is not declared in the one shape/,
    );
    assert.equal(plugin.transform.call(context, 'f(DEV());\n', '/elsewhere/a.ts'), null);
    assert.equal(
      plugin.transform.call(context, `${declaration}f(DEV());\n`, id).code,
      `f(${devTest});\n`,
    );
  });

  it('rewrites every module of src/ that has the flag, as written and as compiled', () => {
    const files = readdirSync(new URL('src', root), { recursive: true })
      .filter((file) => file.endsWith('.ts') && !/\.test(-d)?\.ts$|test-utils/.test(file))
      .map((file) => `src/${file.split('\\').join('/')}`);
    assert.ok(files.length > 50, `${files.length} modules`);
    for (const file of files) {
      const code = readFileSync(new URL(file, root), 'utf8');
      const compiled = ts.transpileModule(code, {
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          experimentalDecorators: true,
          useDefineForClassFields: false,
        },
      }).outputText;
      for (const text of [code, compiled]) {
        assert.doesNotMatch(inlineDevFlag(text, file), /(?<![\w$.])DEV(?![\w$])/, file);
      }
    }
  });
});

describe('a production bundle of src/', () => {
  const bundle = async (mode) => {
    const result = await build({
      ...settings,
      define: { 'process.env.NODE_ENV': JSON.stringify(mode) },
      metafile: false,
      stdin: {
        contents: ours[0].code,
        resolveDir: new URL('.', root).pathname,
        sourcefile: 'entry.js',
        loader: 'js',
      },
    });
    return result.outputFiles[0].text;
  };
  /** Development-only text of the main entry: warnings and misuse advice. */
  const devOnlyText = [
    'has no static key, so its class name is used',
    'or provide controllerContext to it',
    'does the server send the wrong Content-Type?',
    'for several types use new schema.Union',
    'pass one to the Controller',
  ];

  it('holds no flag and none of the development-only text', async () => {
    const code = await bundle('production');
    assert.doesNotMatch(code, /DEV\(/);
    assert.doesNotMatch(code, /NODE_ENV/);
    for (const text of devOnlyText) assert.equal(code.includes(text), false, text);
  });

  it('keeps that text in development (the control)', async () => {
    const code = await bundle('development');
    assert.doesNotMatch(code, /DEV\(/);
    for (const text of devOnlyText) assert.equal(code.includes(text), true, text);
  });
});
