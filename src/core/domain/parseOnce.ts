// zod compiles a fast parser for an object schema the first time it parses with it (it generates the code, then V8
// compiles it): worth it for a store of a thousand records, a loss where a process parses once (the record a request
// changes, the configuration), which a CLI call does and then exits. Those parses take this context: the same checks
// and results, without the generated parser.
export const PARSE_ONCE = { jitless: true } as const;
