// The filler's promise when the API refuses a step (npm run test:first-run): one line naming the section and the step,
// the rest of that section skipped, every other section sent. The API here is a stand-in that answers as the real one
// does in shape (ids, an order's lines, a shipment's packages) and refuses what a test says; that the real API
// accepts the whole plan is the first-run check's part (scripts/check-first-run.mjs).
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, it } from "node:test";
import { Refused, runPlan } from "./fill.mjs";
import { demoPlan } from "./plan.mjs";

/** A stand-in API: every write makes an id; `refuse(method, path, body)` says which step it refuses. */
function standIn(refuse) {
  const products = [];
  const productOfLine = new Map();
  const sent = [];
  const line = (productId) => {
    const id = randomUUID();
    productOfLine.set(id, productId);
    return { id, productId };
  };
  // An order's lines as the API stores them: a kit's line becomes a line per component.
  const lines = (body) =>
    (body?.lines ?? []).flatMap((requested) => {
      const productId =
        requested.productId ?? productOfLine.get(requested.orderLineId ?? requested.returnLineId);
      const kit = products.find((p) => p.id === productId && p.type === "kit");
      return kit ? kit.components.map((c) => line(c.productId)) : [line(productId)];
    });
  const send = async (method, path, { body } = {}) => {
    sent.push(`${method} ${path}`);
    if (refuse(method, path, body)) throw new Refused("409 refused by the test");
    if (method === "GET" && path.startsWith("/products"))
      return { items: products, totalCount: products.length };
    if (method === "GET" && path.startsWith("/jobs/")) return { status: "succeeded" };
    if (path === "/products/batch") {
      for (const product of body.products) products.push({ ...product, id: randomUUID() });
      return {};
    }
    const made = {
      id: randomUUID(),
      lines: lines(body),
      packages: body?.packages?.map((_, i) => ({ id: randomUUID(), packageNo: i + 1 })),
    };
    if (path === "/products") products.push({ ...body, ...made });
    return made;
  };
  return { api: { send }, sent };
}

const plan = demoPlan("2028-02-29");
/** The writes a list of steps sends (the stand-in's pick lists have no lines, so picks send none). */
const writesOf = (steps) =>
  steps.filter((s) => (s.method && s.method !== "GET") || s.upload !== undefined).length;
const allWrites = writesOf(plan.sections.flatMap((s) => s.steps));
const writesSent = (sent) => sent.filter((request) => !request.startsWith("GET ")).length;

describe("the filler", () => {
  it("sends every step of the plan when nothing is refused", async () => {
    const { api, sent } = standIn(() => false);
    const lines = [];
    const { refused } = await runPlan(plan, api, { log: (line) => lines.push(line) });
    assert.deepEqual(refused, []);
    assert.deepEqual(lines, []);
    assert.equal(writesSent(sent), allWrites);
  });

  it("names a refused step in one line and skips only the rest of its section", async () => {
    const day = plan.sections.find((s) => s.day === "2028-02-15");
    const target = day.steps.find((s) => s.path === "/orders/sales");
    const { api, sent } = standIn(
      (_method, path, body) =>
        path === target.path &&
        body?.lines?.length === target.body.lines.length &&
        body.customerId === target.body.customerId,
    );
    const lines = [];
    const { refused } = await runPlan(plan, api, { log: (line) => lines.push(line) });
    assert.deepEqual(refused, ["2028-02-15"]);
    assert.deepEqual(lines, [
      `[demo] 2028-02-15: "${target.label}" was refused (409 refused by the test); the rest of it is skipped`,
    ]);
    // Every other section was sent whole; of this one, the steps before the refused one and the refused one.
    const skipped = writesOf(day.steps.slice(day.steps.indexOf(target) + 1));
    assert.equal(writesSent(sent), allWrites - skipped);
  });

  it("refuses in one line a step that needs what a refused one would have made", async () => {
    const { api } = standIn((_method, path) => path === "/merchants");
    const lines = [];
    const { refused } = await runPlan(plan, api, { log: (line) => lines.push(line) });
    // The catalog stops at its merchant; each section after it stops at its first step that needs the catalog.
    assert.equal(lines.length, refused.length);
    assert.equal(refused[0], "catalog");
    assert.match(lines[0], /^\[demo\] catalog: "merchant ACME" was refused \(409 refused by the test\)/);
    assert.match(lines[1], /needs product:[\w-]+, which an earlier refused step did not make/);
  });
});
