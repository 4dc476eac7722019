// esbuild plugin: markdown-it imports `entities` for its HTML entity decoder, whose 47 KB table is built when the
// module loads: milliseconds on every CLI start, for a decoder that only a link reference definition with an `&`
// ever calls (src/core/markdownBlockParser.ts runs block rules only). So `entities` resolves to a module that
// loads the decoder (entities/lib/decode.js, the package's own entry point) on the first call, and never the
// encoder markdown-it does not use. Decoding itself is entities' code, unchanged.
import * as path from 'node:path';

const SHIM = `
let decoder;
const load = () => (decoder ??= require('entities/lib/decode.js'));
export const decodeHTML = (text, mode) => load().decodeHTML(text, mode);
export const decodeHTMLStrict = (text) => load().decodeHTMLStrict(text);
`;

export const lazyEntities = {
  name: 'lazy-entities',
  setup(build) {
    build.onResolve({ filter: /^entities$/ }, (args) =>
      args.importer.includes(`${path.sep}markdown-it${path.sep}`) ? { path: args.importer, namespace: 'lazy-entities' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-entities' }, (args) => ({
      contents: SHIM,
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};
