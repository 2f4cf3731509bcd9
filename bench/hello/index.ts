import { Hono } from "hono";

// The baseline: a bare Hono Worker on the same runtime, so ratios measure our code, not workerd.
const app = new Hono();
app.get("/hello", (c) => c.json({ hello: "world" }));

export default app;
