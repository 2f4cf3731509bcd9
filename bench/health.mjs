// GET /api/v1/health against the bare Hono hello Worker: the cost of the pipeline itself.
// Run: npm run bench -- health   (or: node bench/health.mjs)
import { load, report, startApi, startHello } from "./lib.mjs";

const api = await startApi({ port: 8801 });
const hello = await startHello({ port: 8802 });
try {
  await load({ url: hello.url, duration: 2 }); // warm-up
  await load({ url: `${api.api}/health`, duration: 2 });
  const baseline = await load({ url: hello.url });
  const health = await load({ url: `${api.api}/health` });
  report("health vs bare hello", { "bare hello": baseline, "GET /api/v1/health": health }, baseline);
} finally {
  api.stop();
  hello.stop();
}
