// One rule, said the same way in the JSDoc (and so in the API reference) as in the guide
// (docs/guide/entities.md): a read that is INVALID is fetched, but a read still INVALID right after
// its own answer is an error naming what it lacks, never another request. The JSDoc once said only
// "so it is fetched again", which reads as a loop.
//
// The check is deliberately plain: a doc comment in src/ with a sentence that says something
// invalid is fetched again must also say, in the same comment, "never another request". A
// comment about another kind of "fetched again" that trips it can be reworded; that is cheaper
// than a second truth in the reference.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function sources(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sources(path, out);
    else if (entry.name.endsWith('.ts') && !/\.test(-d)?\.ts$|\.test-d\.ts$/.test(entry.name))
      out.push(path);
  }
  return out;
}

const invalid = /\binvalid\b/i;
const fetchedAgain = /\b(fetch(es|ed|ing)?|request(s|ed)?|sen[dt]s?)\b[^.;]*\bagain\b|\brefetch/i;

/** Sentences of `text`'s doc comments that say an invalid read is fetched again, without the rule. */
function contradictions(text, file) {
  const found = [];
  for (const match of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const comment = match[0]
      .replace(/^\s*\/?\*+\/?/gm, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (comment.includes('never another request')) continue;
    for (const sentence of comment.split(/(?<=[.;])\s+/)) {
      if (invalid.test(sentence) && fetchedAgain.test(sentence)) {
        const line = text.slice(0, match.index).split('\n').length;
        found.push(`${file}:${line}: ${sentence}`);
      }
    }
  }
  return found;
}

describe('JSDoc on invalid reads', () => {
  it('never says an invalid read is fetched again without the error rule', () => {
    const found = sources(join(root, 'src')).flatMap((file) =>
      contradictions(readFileSync(file, 'utf8'), relative(root, file)),
    );
    assert.deepEqual(
      found,
      [],
      `These doc comments say an invalid read is fetched again, without the rule that one still ` +
        `INVALID right after its own answer is an error, never another request:\n${found.join('\n')}`,
    );
  });

  it('flags the sentence Entity had, and not the same with the rule', () => {
    const before =
      '/**\n * Any other default makes it required (the whole read\n * becomes INVALID, so it is fetched again).\n */';
    const after =
      '/**\n * Any other default makes it required: the whole read becomes INVALID and is fetched again;\n' +
      ' * one still INVALID right after its own answer is an error, never another request.\n */';
    assert.equal(contradictions(before, 'entity.ts').length, 1);
    assert.deepEqual(contradictions(after, 'entity.ts'), []);
    // A comment about other things fetched again is left alone.
    assert.deepEqual(
      contradictions('/** A stale read is fetched again when shown. */', 'x.ts'),
      [],
    );
  });
});
