// esbuild plugin: zod's namespace re-exports every locale (`export * as locales`), which esbuild cannot shake
// out, and they were about 260 KB of the 596 KB extension bundle. AgentSync reports errors in English only, so the
// locale index zod imports is replaced by one that exports `en` alone; validation itself is untouched.
import * as path from 'node:path';

export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: args.importer, namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => {
      const en = path.join(path.dirname(args.path), '../locales/en.js');
      return { contents: `export { default as en } from ${JSON.stringify(en)};`, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};
