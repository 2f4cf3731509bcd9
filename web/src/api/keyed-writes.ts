// Which requests of the web app are keyed writes: read by the API client, which keys and retries them, and by the
// browser tests' lossy network (e2e/support/browser.ts), which loses their first answers. No DOM here, so Node
// imports it too.

const WRITE = /^(POST|PUT|PATCH|DELETE)$/;
// Writes the server does not de-duplicate: the session's own endpoints (a refresh token presented twice ends the
// login) and uploads (streamed, never hashed). Every other write is keyed and may be repeated with its key.
const UNKEYED = /^\/api\/v1\/(auth\/|uploads$)/;

/** Whether a request of `method` to `pathname` is a write the server de-duplicates by its Idempotency-Key. */
export const isKeyedWrite = (method: string, pathname: string): boolean =>
  WRITE.test(method) && !UNKEYED.test(pathname);
