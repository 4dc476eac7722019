// The phases' findings schemas (src/core/domain/phaseFindings.ts) are built on the first report checked, not when the
// module loads: every CLI process loads it, and most (a claim, a list) check no report. The module is loaded afresh
// with a zod that counts what is asked of it.
import { strict as assert } from 'node:assert';
import * as nodeModule from 'node:module';

type Loader = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;
const loader = nodeModule.Module as unknown as { _load: Loader };
const load = nodeModule.createRequire(__filename);

describe('phase findings: schemas built on first use', () => {
  it('loading the module asks nothing of zod; the first check builds the schemas and checks as before', () => {
    const file = load.resolve('../../../../src/core/domain/phaseFindings');
    const realLoad = loader._load;
    let asked: string[] = [];
    loader._load = function (request, parent, isMain) {
      const loaded = realLoad.call(this, request, parent, isMain);
      if (request !== 'zod' || parent?.filename !== file) return loaded;
      return new Proxy(loaded as object, {
        get(target, key, receiver) {
          if (key !== '__esModule' && key !== 'default') asked.push(String(key));
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    };
    const cached = load.cache[file];
    delete load.cache[file];
    try {
      const fresh = load(file) as typeof import('../../../../src/core/domain/phaseFindings');
      assert.deepEqual(asked, [], 'building schemas at load');
      assert.deepEqual(fresh.findingsProblems('write', { files_created: [{ path: 'a.ts', purpose: 'the fix' }] }), []);
      assert.ok(asked.length > 0, 'the check built its schemas');
      asked = [];
      assert.match(
        fresh.findingsProblems('validate', { checks: { tests: { passed: false } }, overall_passed: true }).join(),
        /overall_passed/,
      );
      assert.ok(!asked.includes('looseObject'), 'built again on the second check');
    } finally {
      loader._load = realLoad;
      if (cached) load.cache[file] = cached;
      else delete load.cache[file];
    }
  });
});
