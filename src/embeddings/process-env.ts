/**
 * The process's environment where there is one (Node.js), read without `node:` imports or Node's types so that
 * the providers, reachable from the root export, run anywhere; undefined in a browser, which has no `process`.
 */
export function processEnv(): Record<string, string | undefined> | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
}
