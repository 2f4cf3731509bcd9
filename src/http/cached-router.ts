import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";

// Hono's default router tries its RegExpRouter, which refuses the API's paths (`/users/{id}` next to
// `/users/invitations/{id}`), and falls back to its TrieRouter, which walks its tree of every route and middleware
// on every request: about 7% of a product page's CPU in a profile (BENCHMARKS.md, "The product page's CPU"). A
// match depends only on the method and the path, so the isolate keeps the last ones it found.

/** Matches remembered at most; past it the memory starts over (a path with an id is rarely asked twice). */
export const REMEMBERED_MATCHES = 1000;

/** Hono's default router, remembering what it matched for each method and path. */
export class CachedRouter<T> implements Router<T> {
  readonly name = "CachedRouter";
  readonly #router: Router<T> = new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] });
  readonly #matches = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.#matches.clear();
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    const key = `${method} ${path}`;
    let result = this.#matches.get(key);
    if (result === undefined) {
      result = this.#router.match(method, path);
      if (this.#matches.size >= REMEMBERED_MATCHES) this.#matches.clear();
      this.#matches.set(key, result);
    }
    return result;
  }
}
