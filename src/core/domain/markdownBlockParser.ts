// A Markdown block parser: markdown-it's own block rules (CommonMark plus GitHub's tables, HTML blocks on), without
// the rest of markdown-it. Finding tracker sections needs block structure only (src/core/markdownSections.ts), and
// `new MarkdownIt()` would also bundle its inline parser, renderer, linkify-it, punycode and entity encoder: about
// 70 KB of the extension bundle that never runs (docs/agentsync-documentation.md, "The tracker").
import ParserBlock from 'markdown-it/lib/parser_block.mjs';
import * as helpers from 'markdown-it/lib/helpers/index.mjs';
import type MarkdownIt from 'markdown-it/lib/index.mjs';
import type Token from 'markdown-it/lib/token.mjs';

// markdown-it's link check, which decides whether `[label]: url` is a link reference definition or a paragraph
// (and so whether a following `===` makes a setext heading). markdown-it normalizes the url first (percent-encoding,
// punycode hosts); neither changes whether it starts with one of these schemes, so the answer is the same.
const BAD_PROTO_RE = /^(vbscript|javascript|file|data):/;
const GOOD_DATA_RE = /^data:image\/(gif|png|jpeg|webp);/;

function validateLink(url: string): boolean {
  const str = url.trim().toLowerCase();
  return BAD_PROTO_RE.test(str) ? GOOD_DATA_RE.test(str) : true;
}

const block = new ParserBlock();
/** What the block rules read of a MarkdownIt instance; markdown-it's 'default' preset with `html: true`. */
const md = {
  block,
  helpers,
  options: { html: true, maxNesting: 100 },
  normalizeLink: (url: string) => url,
  validateLink,
} as unknown as MarkdownIt;

/** The block tokens of `text`, as `new MarkdownIt('default', { html: true }).parse` gives them with inline rules off. */
export function parseBlocks(text: string): Token[] {
  // markdown-it's core 'normalize' rule: CommonMark line endings, NUL replaced.
  const src = text.replace(/\r\n?|\n/g, '\n').replace(/\0/g, '\uFFFD');
  const tokens: Token[] = [];
  block.parse(src, md, {}, tokens);
  return tokens;
}
