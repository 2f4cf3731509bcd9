// The cost of authentication: GET /api/v1/auth/me with an API key (one indexed lookup) and with a
// JWT (verified with no D1 read for authentication), against the bare Hono hello Worker.
// Run: npm run bench -- auth   (or: node bench/auth.mjs)
import { createTenant, load, report, startApi, startHello } from "./lib.mjs";

const api = await startApi({ port: 8810, persistTo: "/tmp/bench-auth-state" });
const hello = await startHello({ port: 8812 });
try {
  const tenant = await createTenant(api.api);
  const login = await fetch(`${api.api}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: tenant.email, password: tenant.password }),
  });
  const { token } = (await login.json()).data;
  const me = `${api.api}/auth/me`;
  const withKey = { url: me, headers: { "x-api-key": tenant.key } };
  const withJwt = { url: me, headers: { authorization: `Bearer ${token}` } };
  for (const target of [{ url: hello.url }, withKey, withJwt]) await load({ ...target, duration: 2 }); // warm-up
  const baseline = await load({ url: hello.url });
  report(
    "authenticated GET /auth/me vs bare hello",
    {
      "bare hello": baseline,
      "GET /auth/me (API key)": await load(withKey),
      "GET /auth/me (JWT)": await load(withJwt),
    },
    baseline,
  );
} finally {
  api.stop();
  hello.stop();
}
