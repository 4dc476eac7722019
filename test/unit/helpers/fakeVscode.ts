// Lets a unit test load modules of src/vscode without an editor: `vscode` resolves to an inert stand-in whose every
// property, call and construction answers another stand-in. Only for tests that build things (a table of handlers)
// without running them; anything that runs against it does nothing meaningful.
import { Module } from 'node:module';

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;

const inert: unknown = new Proxy(function inertVscode() {}, {
  get: (_t, key) => (key === 'then' || typeof key === 'symbol' ? undefined : inert),
  apply: () => inert,
  construct: () => inert as object,
});

/** Until the returned function is called, `require('vscode')` answers the stand-in. */
export function installFakeVscode(): () => void {
  const mod = Module as unknown as { _load: Loader };
  const original = mod._load;
  mod._load = (request, parent, isMain) => (request === 'vscode' ? inert : original(request, parent, isMain));
  return () => {
    mod._load = original;
  };
}
