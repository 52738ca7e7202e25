/**
 * `load` run at the first call, its promise shared by every later call; a failure is forgotten, so that
 * a later call tries again (after the user installs a missing package, say).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let ready: Promise<T> | undefined;
  return () => {
    if (ready === undefined) {
      const loading = load();
      ready = loading;
      loading.catch(() => {
        if (ready === loading) ready = undefined;
      });
    }
    return ready;
  };
}
