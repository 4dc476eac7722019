#!/usr/bin/env node
// The `agentsync` command: the bundled CLI in dist/ (run `npm run build` first in a checkout).
// `agentsync hook …` runs after every tool call of an agent, so it starts from a small bundle (dist/hook.js)
// that loads the CLI only when it has work to do.
// Agents call the CLI in loops, and every agent runs `agentsync hook` around each of its tool calls, so compiling
// the bundles is skipped where it can be: the package build (`node esbuild.mjs --production`, npm's prepack) leaves
// V8's compiled code for dist/cli.js and dist/hook.js beside them (`<bundle>.v8cache`), used when this Node has the
// same V8 and the bundle is exactly the one the cache was made from; otherwise the bundle is compiled as usual, and
// on Node 22.1 and later kept in Node's own compile cache (in the temp folder; NODE_DISABLE_COMPILE_CACHE=1 turns it
// off). Node 20 has no such cache, and does not even load node:module for it.
// bin/package.json says this folder is CommonJS: Node then reads that small file, not the package's own package.json
// (84 KB with the editor's contributions) to learn how to load this file, on every start.
const path = require('node:path');

const args = process.argv.slice(2);
let verb;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dir' || args[i] === '-C' || args[i] === '--request-id') i++;
  else if (!args[i].startsWith('-')) {
    verb = args[i];
    break;
  }
}
const bundle = path.join(__dirname, '..', 'dist', verb === 'hook' ? 'hook.js' : 'cli.js');
(loadWithCodeCache(bundle) ?? requireCompiled(bundle)).main();

function requireCompiled(file) {
  if (Number(process.versions.node.split('.')[0]) >= 22) {
    const nodeModule = require('node:module');
    if (typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache();
  }
  return require(file);
}

/**
 * The bundle's exports, run from its code cache (`<file>.v8cache`: one JSON header line naming the V8 version and the
 * bundle's length, then the bundle's exact bytes, then V8's data), or undefined when there is no usable cache (none,
 * another V8, another bundle); data V8 still refuses only means that it compiles the bundle itself. The bundle is
 * checked against its copy byte for byte: as sure as a digest, and it loads no node:crypto, which the tool hooks
 * never need. With AGENTSYNC_WRITE_CODE_CACHE set (the build, scripts/build/codeCache.mjs) the bundle is run from that
 * file's cache if it has one, and the code compiled by then is written back to it when the process exits: a few verbs
 * in turn leave the code of all of them. `AGENTSYNC_CODE_CACHE_REPORT=1` prints to standard error whether V8 took the
 * data (for the tests).
 */
function loadWithCodeCache(file) {
  const fs = require('node:fs');
  const out = process.env.AGENTSYNC_WRITE_CODE_CACHE;
  let cache;
  try {
    cache = fs.readFileSync(out || file + '.v8cache');
  } catch {
    if (!out) return undefined;
  }
  const source = fs.readFileSync(file);
  let cachedData;
  if (cache) {
    const eol = cache.indexOf(0x0a);
    let header;
    try {
      header = JSON.parse(cache.subarray(0, Math.max(eol, 0)).toString('utf8'));
    } catch {
      return undefined;
    }
    const copy = cache.subarray(eol + 1, eol + 1 + source.length);
    if (header?.v8 === process.versions.v8 && header?.bytes === source.length && copy.equals(source))
      cachedData = cache.subarray(eol + 1 + source.length);
    else if (!out) return undefined;
  }
  const vm = require('node:vm');
  const Module = require('node:module');
  // Data V8 refuses (run with other V8 flags) costs nothing more: the script is compiled as usual instead.
  const script = new vm.Script(Module.wrap(source.toString('utf8')), { filename: file, cachedData });
  const mod = new Module(file, module);
  mod.filename = file;
  mod.paths = Module._nodeModulePaths(path.dirname(file));
  Module._cache[file] = mod;
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  mod.loaded = true;
  if (process.env.AGENTSYNC_CODE_CACHE_REPORT === '1')
    process.stderr.write(`code cache: ${cachedData ? (script.cachedDataRejected ? 'rejected' : 'used') : 'writing'}\n`);
  if (out) {
    process.on('exit', () => {
      const header = JSON.stringify({ v8: process.versions.v8, bytes: source.length }) + '\n';
      fs.writeFileSync(out, Buffer.concat([Buffer.from(header), source, script.createCachedData()]));
    });
  }
  return mod.exports;
}
