// The extension's exports are the integration suite's seam, never a public API.
import * as assert from 'node:assert/strict';
import { TEST_SEAM_ENV, testSeam } from '../../../src/vscode/testSeam';

describe('test seam of the extension', () => {
  const handles = { trust: { simulate: () => undefined } };

  it('exports nothing in a user window (variable unset)', () => {
    assert.equal(testSeam(handles, {}), undefined);
  });

  it('exports nothing for any value other than 1', () => {
    assert.equal(testSeam(handles, { [TEST_SEAM_ENV]: 'true' }), undefined);
    assert.equal(testSeam(handles, { [TEST_SEAM_ENV]: '' }), undefined);
  });

  it('hands the suite its handles when the runner set the variable', () => {
    assert.equal(testSeam(handles, { [TEST_SEAM_ENV]: '1' }), handles);
  });

  it('the integration runner sets the variable the extension reads', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const runner = fs.readFileSync(path.resolve(__dirname, '../../../../test/integration/run.mjs'), 'utf8');
    assert.match(runner, new RegExp(`process\\.env\\.${TEST_SEAM_ENV} = '1'`));
  });
});
