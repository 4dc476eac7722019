// esbuild plugin: in a CommonJS bundle esbuild gives every file that imports a Node module (`import * as fs from
// 'node:fs'`) its own copy of that module's exports, one getter per export: 34 copies of fs's 100-odd exports in
// dist/cli.js, milliseconds of every CLI start and garbage to collect. Imports of Node's built-in modules from ES
// modules resolve instead to one shared module per built-in that re-exports it (and `default`, the module
// itself), so the copy is made once. The functions called are Node's own, unchanged; require() is not touched.
import { builtinModules } from 'node:module';

const NAMESPACE = 'shared-builtin';

export const sharedBuiltins = {
  name: 'shared-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (args.kind !== 'import-statement' || args.namespace === NAMESPACE || !builtinModules.includes(name)) return undefined;
      return { path: name, namespace: NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
      const id = JSON.stringify(`node:${args.path}`);
      return { contents: `const m = require(${id});\nexport { m as default };\nexport * from ${id};\n`, loader: 'js' };
    });
  },
};
