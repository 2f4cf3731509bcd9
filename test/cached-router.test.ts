import { Hono } from "hono";
import type { H, RouterRoute } from "hono/types";
import { describe, expect, it } from "vitest";
import { CachedRouter, REMEMBERED_MATCHES } from "../src/http/cached-router";

// The app's router remembers its matches (src/http/cached-router.ts): a remembered match must be the one the
// method and path would get anyway, whatever was asked before, and the memory stays bounded.

function usersApp() {
  const router = new CachedRouter<[H, RouterRoute]>();
  const app = new Hono({ router });
  app.use("*", async (c, next) => {
    await next();
    c.header("X-Seen", "1");
  });
  // A literal segment next to a parameter: the shape that makes Hono's RegExpRouter refuse the API's paths.
  app.get("/users/invitations/:id", (c) => c.text(`invitation ${c.req.param("id")}`));
  app.get("/users/:id", (c) => c.text(`user ${c.req.param("id")}`));
  app.delete("/users/:id", (c) => c.text(`deleted ${c.req.param("id")}`));
  const ask = async (method: string, path: string) => {
    const res = await app.request(path, { method });
    return { status: res.status, text: await res.text(), seen: res.headers.get("X-Seen") };
  };
  return { router, ask };
}

describe("the app's router", () => {
  it("answers a path asked again as the first time, each path and method with its own route and parameters", async () => {
    const { ask } = usersApp();
    const expected = {
      "GET /users/a": "user a",
      "GET /users/b": "user b",
      "GET /users/invitations/x": "invitation x",
      "DELETE /users/a": "deleted a",
    };
    for (let round = 0; round < 3; round++) {
      for (const [request, text] of Object.entries(expected)) {
        const [method, path] = request.split(" ") as [string, string];
        expect(await ask(method, path), `${request}, round ${round}`).toEqual({
          status: 200,
          text,
          seen: "1",
        });
      }
    }
    expect((await ask("PUT", "/users/a")).status).toBe(404);
    expect((await ask("GET", "/users/a")).text).toBe("user a");
  });

  it("remembers a match, and starts over past its bound rather than growing", async () => {
    const { router } = usersApp();
    const first = router.match("GET", "/users/a");
    expect(router.match("GET", "/users/a")).toBe(first);
    for (let i = 0; i < REMEMBERED_MATCHES; i++) router.match("GET", `/users/${i}`);
    const again = router.match("GET", "/users/a");
    expect(again).not.toBe(first); // forgotten: found again
    expect(again).toEqual(first);
  });
});
