// The block-only parser (src/core/markdownBlockParser.ts) must see the same block structure as the markdown-it
// instance it replaced: `new MarkdownIt('default', { html: true })` with only the normalize and block core rules.
// Every token field the section finder reads (type, tag, markup, level, nesting, map, content) is compared, on
// hand-picked cases around the parts wired by hand (link reference definitions and their link check, line endings,
// NUL) and on random documents built from Markdown block syntax.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { parseBlocks } from '../../../../src/core/domain/markdownBlockParser';

const reference = new MarkdownIt('default', { html: true });
reference.core.ruler.enableOnly(['normalize', 'block']);

type Shape = Pick<ReturnType<typeof parseBlocks>[number], 'type' | 'tag' | 'markup' | 'level' | 'nesting' | 'map' | 'content'>;
const shape = (tokens: Shape[]) =>
  tokens.map(({ type, tag, markup, level, nesting, map, content }) => ({ type, tag, markup, level, nesting, map, content }));

function assertSameBlocks(text: string): void {
  assert.deepEqual(shape(parseBlocks(text)), shape(reference.parse(text, {})), `block tokens differ for ${JSON.stringify(text)}`);
}

/** A setext underline after a link reference definition is a heading exactly when the definition is refused. */
const LINK_CASES = [
  '[a]: https://example.com\n===\n',
  '[a]: javascript:alert(1)\n===\n',
  '[a]: JavaScript:alert(1)\n===\n',
  '[a]: <javascript:alert(1)>\n===\n',
  '[a]: &#106;avascript:alert(1)\n===\n',
  '[a]: javascript&colon;alert(1)\n===\n',
  '[a]: &#32;javascript:x\n---\n',
  '[a]: vbscript:x\n---\n',
  '[a]: file:///etc/passwd\n===\n',
  '[a]: data:text/html,x\n===\n',
  '[a]: data:image/png;base64,AAAA\n===\n',
  '[a]: DATA:IMAGE/GIF;x\n===\n',
  '[a]: http://ünïcödé.example/ä\n===\n',
  '[a]: mailto:me@ëxample.org "title &amp; more"\n===\n',
  '[a]: %6Aavascript:x\n===\n',
  '[a]:\n  javascript:x\n  "t"\n===\n',
  '> [a]: javascript:x\n> ===\n',
  '- [a]: javascript:x\n  ===\n',
];

const OTHER_CASES = [
  '',
  '# A\r\n\r\n## Agent Handoffs\r\nx\r\n## B\r\n',
  '# A\r## B\rtext\r===\r',
  'a\0b\n## c\u0000\n',
  '```\n## not a heading\n```\n## heading\n',
  '<div>\n## inside html\n</div>\n\n## after\n',
  '| a | b |\n|---|---|\n| ## c | d |\n## e\n',
  '    ## indented code\n   ## heading\n',
  '> ## quoted\n>\n> text\n## after\n',
  '1. item\n\n   ## in list\n## out\n',
  '\t## tab-indented\n',
];

const BLOCK_LINES = [
  '## Agent Handoffs',
  '## Other',
  '# Title',
  '### Deeper',
  '   ## indented',
  '    ## code',
  '===',
  '---',
  '***',
  '```',
  '~~~',
  '```js',
  '<div>',
  '</div>',
  '<!-- comment',
  '-->',
  '<pre>',
  '</pre>',
  '> quoted',
  '> ## quoted heading',
  '>',
  '- item',
  '* item',
  '1. item',
  '  - nested',
  '   continued',
  '| a | b |',
  '|---|---|',
  '[a]: https://example.com',
  '[a]: javascript:x',
  '[a]: &#106;avascript:x',
  '[b]: <data:image/png;x> "t"',
  'plain text',
  'text with `code` and *emphasis*',
  '&amp; &#35; &colon;',
  '',
  '\t',
  ' ',
];

const document = fc
  .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...BLOCK_LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) }), {
    maxLength: 30,
  })
  .chain((lines) => fc.constantFrom('\n', '\r\n', '\r').map((eol) => lines.join(eol)));

describe('markdown block parser (markdown-it block rules only)', () => {
  it('link reference definitions: accepted and refused exactly as markdown-it does (the setext heading after them)', () => {
    for (const text of LINK_CASES) assertSameBlocks(text);
    // The cases exercise both outcomes: a refused definition leaves a paragraph that `===` turns into a heading.
    const headings = LINK_CASES.filter((t) => parseBlocks(t).some((tok) => tok.type === 'heading_open'));
    assert.ok(headings.length >= 5 && headings.length < LINK_CASES.length, `headings in ${headings.length} of ${LINK_CASES.length}`);
  });

  it('line endings, NUL, fences, HTML blocks, tables, indents, quotes and lists match markdown-it', () => {
    for (const text of OTHER_CASES) assertSameBlocks(text);
  });

  it('random documents of Markdown block syntax give the same tokens', () => {
    fc.assert(
      fc.property(document, (text) => assertSameBlocks(text)),
      { numRuns: 500 },
    );
  });
});
