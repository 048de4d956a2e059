// The development flag, one per module (as Lit's DEV_MODE). A src/ module with development-only
// code (advice in error messages, misuse checks, warnings) declares it once, at the top level:
//
//   function DEV(): boolean {
//     return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
//   }
//
// and calls `DEV()` wherever it asks. Run from source (tsx in Node, the test runner's browsers)
// the call reads NODE_ENV at that moment, so a test may switch it between two calls; and being a
// function declaration, it is there before the module's body runs (an import cycle cannot reach
// it uninitialized).
//
// Whatever is built or bundled from src/ goes through `inlineDevFlag` first: the rollup build
// (rollup.config.mjs) and the esbuild bundles of src/ (scripts/size.mjs, bench/render.bench.ts).
// It drops the declaration and writes the test out in place of each call, which is the code the
// modules held by hand before the flag. There a consumer's bundler replaces process.env.NODE_ENV
// and folds each test, and the prose behind it, away where it stands: esbuild folds neither a
// top-level constant of a module that imports anything nor a call of a local function, so the
// flag itself must not reach dist/.
//
// Strict by design: a module that mentions DEV without the one declaration of exactly that shape,
// declares it twice, or uses DEV other than as `DEV()` fails the build, named.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src') + sep;

/** The development test, as each call of the flag becomes in what is built. */
export const devTest =
  "(typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production'";

/** The declaration, as the error that asks for it shows it. */
const shape = `  function DEV(): boolean {\n    return ${devTest};\n  }`;
const escaped = devTest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The declaration: TypeScript as written (with its return type) or as the compiler emits it. */
const declaration = new RegExp(
  `^function DEV\\(\\)(?:: boolean)? \\{[ \\n]+return ${escaped};\\n\\}\\n`,
  'gm',
);
/** Any mention of the name, as an identifier (not `isDEV`, `DEV_MODE` or `x.DEV`). */
const mention = /(?<![\w$.])DEV(?![\w$])/;
const mentions = new RegExp(mention.source, 'g');
const call = /(?<![\w$.])DEV\(\)/g;

// Where the test can stand bare: between these (comments aside), nothing around it binds tighter
// than `!==`. Anywhere else (`!DEV()`, `DEV() === x`, `DEV()?.x`) it is put in parentheses.
const openBefore = /(?:\$\{|[([{,;?:]|&&|\|\||\?\?|(?<![=!<>])=|=>|\breturn)$/;
const closeAfter = /^\s*(?:[)\]},;:]|\?(?!\.)|&&|\|\||$)/;

/** `text` without the white space and comments it ends with. */
function codeBefore(text) {
  for (;;) {
    text = text.trimEnd();
    const line = text.slice(text.lastIndexOf('\n') + 1);
    if (/^\s*\/\//.test(line)) text = text.slice(0, -line.length);
    else if (text.endsWith('*/')) text = text.slice(0, text.lastIndexOf('/*'));
    else return text;
  }
}

/** 1-based line of `index` in `code`, for messages. */
const lineOf = (code, index) => code.slice(0, index).split('\n').length;

/**
 * `code` (a src/ module, TypeScript or the compiler's JavaScript) with its DEV declaration
 * dropped and each `DEV()` replaced by the inline test; `code` itself when it has no flag.
 * Throws, naming `file`, when the flag is not declared and used as it must be.
 */
export function inlineDevFlag(code, file) {
  if (!mention.test(code)) return code;
  const declared = [...code.matchAll(declaration)];
  if (declared.length === 0) {
    const at = lineOf(code, code.search(mention));
    throw new Error(
      `${file}:${at}: DEV is not declared in the one shape the build rewrites. A module with ` +
        `development-only code declares it once, at the start of a line:\n${shape}\n` +
        '(scripts/dev-flag.mjs writes the test inline at each DEV() in what is built).',
    );
  }
  if (declared.length > 1) {
    throw new Error(
      `${file}:${lineOf(code, declared[1].index)}: DEV is declared ${declared.length} times; ` +
        'a module declares it once.',
    );
  }
  const [found] = declared;
  for (const { index } of code.matchAll(mentions)) {
    const inDeclaration = index >= found.index && index < found.index + found[0].length;
    if (!inDeclaration && !code.startsWith('DEV()', index)) {
      throw new Error(
        `${file}:${lineOf(code, index)}: DEV other than as the call DEV(). Only the declaration ` +
          'and the calls are rewritten: call it where it is read, and name it nowhere else ' +
          '(comments included).',
      );
    }
  }
  const out = (code.slice(0, found.index) + code.slice(found.index + found[0].length)).replace(
    call,
    (_, index, whole) =>
      openBefore.test(codeBefore(whole.slice(0, index))) && closeAfter.test(whole.slice(index + 5))
        ? devTest
        : `(${devTest})`,
  );
  // What is checked above leaves nothing behind; this is the build's last word on it.
  if (mention.test(out)) throw new Error(`${file}: DEV is left after the rewrite.`);
  return out;
}

const inSrc = (path) => path.startsWith(src) && path.endsWith('.ts');
const named = (path) => relative(root, path).split(sep).join('/');

/** The rollup plugin: its transform gets each module as the TypeScript plugin compiled it. */
export function devFlagRollup() {
  return {
    name: 'dev-flag',
    transform(code, id) {
      if (!inSrc(id)) return null;
      let out;
      try {
        out = inlineDevFlag(code, named(id));
      } catch (error) {
        this.error(`${error.message}\n(Lines are those of the module compiled to JavaScript.)`);
      }
      return out === code ? null : { code: out, map: null };
    },
  };
}

/** The esbuild plugin, for the bundles of src/ (the "resource-elements-source" condition). */
export function devFlagEsbuild() {
  return {
    name: 'dev-flag',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!inSrc(args.path)) return undefined;
        const code = await readFile(args.path, 'utf8');
        const out = inlineDevFlag(code, named(args.path));
        return out === code ? undefined : { contents: out, loader: 'ts' };
      });
    },
  };
}
