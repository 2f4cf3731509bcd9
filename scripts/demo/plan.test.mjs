// The demo plan on many "todays" (npm run test:first-run): month ends, a leap day, a year's last and first days and
// every day of a whole year. Planning a day runs the stock model over every step, so a plan that would sell what it
// has not received, or move what an order holds, throws here; the dates the API checks (an expiry after today, a
// hold that has not expired, a rate card in effect in the invoiced month) are checked on top. One real run against
// the API is the first-run check (scripts/check-first-run.mjs): why both, docs/decisions/first-run.md.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { StockModel } from "./model.mjs";
import { addDays, DAYS, demoPlan, ean13 } from "./plan.mjs";

const EDGES = [
  "2026-01-31",
  "2026-02-28",
  "2026-03-01",
  "2026-03-31",
  "2026-04-30",
  "2026-11-29",
  "2026-12-31",
  "2027-01-01",
  "2028-02-28",
  "2028-02-29",
  "2028-03-01",
  "2028-12-31",
  "2029-01-01",
];

/** Every string in a request body, wherever it is nested. */
function* strings(value) {
  if (typeof value === "string") yield value;
  else if (value && typeof value === "object") for (const v of Object.values(value)) yield* strings(v);
}

function checkDates(plan) {
  const { today } = plan;
  const days = plan.sections.filter((s) => s.day && s.day !== today).map((s) => s.day);
  // Thirty calendar days before today, oldest first, each once: the dashboard's chart is a history, not a spike.
  assert.deepEqual(
    days,
    Array.from({ length: DAYS }, (_, i) => addDays(today, i - DAYS)),
  );
  const steps = plan.sections.flatMap((s) => s.steps);
  const lots = new Map();
  for (const step of steps.filter((s) => s.path?.endsWith("/receive")))
    for (const line of step.body.lines.filter((l) => l.lotNumber)) {
      assert.ok(
        line.expiresAt > today,
        `lot ${line.lotNumber} expires ${line.expiresAt}, not after ${today}`,
      );
      // A lot number names one lot of a product: received again, it must carry the same expiry.
      const seen = lots.get(`${line.lineId}|${line.lotNumber}`);
      assert.ok(!seen || seen === line.expiresAt, `lot ${line.lotNumber} with two expiries`);
      lots.set(`${line.lineId}|${line.lotNumber}`, line.expiresAt);
    }
  const hold = steps.find((s) => s.path === "/inventory/holds");
  assert.ok(hold.body.expiresAt > `${today}T23:59:59.999Z`, "the hold expires after today");
  const card = steps.find((s) => s.path === "/billing/rate-cards");
  const invoice = steps.find((s) => s.path === "/billing/invoices");
  assert.equal(invoice.body.period, today.slice(0, 7));
  assert.ok(card.body.effectiveFrom <= today && card.body.effectiveFrom.startsWith(invoice.body.period));
  const expected = steps.find((s) => s.body?.expectedAt);
  assert.ok(expected.body.expectedAt > today);
  for (const step of steps)
    for (const text of strings(step.body)) assert.ok(!text.includes("NaN"), step.label);
}

describe("the demo plan", () => {
  for (const today of EDGES)
    it(`is valid by construction on ${today}`, () => {
      const plan = demoPlan(today);
      checkDates(plan);
      // Orders in every status a sales order can be in, a purchase order waiting and a draft.
      assert.deepEqual(
        Object.keys(plan.expected.salesByStatus)
          .filter((s) => plan.expected.salesByStatus[s] > 0)
          .sort(),
        [
          "cancelled",
          "confirmed",
          "delivered",
          "packed",
          "partially_shipped",
          "pending",
          "picking",
          "shipped",
        ],
      );
      assert.equal(plan.expected.purchaseByStatus.ordered, 1);
      assert.equal(plan.expected.purchaseByStatus.draft, 1);
      // The filler stays within the business plan's 300 requests a minute, give or take the picks.
      const requests = plan.sections.reduce((sum, s) => sum + s.steps.length, 0);
      assert.ok(requests < 320, `${requests} requests`);
    });

  it("plans every day of a year, leap day included", () => {
    for (let today = "2027-06-01"; today < "2028-06-01"; today = addDays(today, 1)) demoPlan(today);
  });

  it("names every product, kit and case by its own SKU and barcode", () => {
    const { products, merchantGoods, kits } = demoPlan("2028-02-29").catalog;
    const skus = [...products, ...merchantGoods, ...kits].map((p) => p.sku);
    const barcodes = [...products, ...merchantGoods].flatMap((p) => [
      p.barcode,
      ...(p.packagings ?? []).map((c) => c.barcode),
    ]);
    assert.equal(new Set(skus).size, skus.length);
    assert.equal(new Set(barcodes).size, barcodes.length);
    assert.equal(products.length, 120);
  });

  it("is the same month for the same day", () => {
    assert.deepEqual(demoPlan("2028-02-29").sections, demoPlan("2028-02-29").sections);
  });

  it("refuses what is not a day", () => {
    assert.throws(() => demoPlan("2027-02-29"));
    assert.throws(() => demoPlan("29.02.2028"));
  });
});

describe("the stock model", () => {
  it("never sells what is not available, nor moves what an order may hold", () => {
    const model = new StockModel();
    model.receive("A", "MAIN/A-01-1", 5);
    model.reserve("A", "MAIN", 4);
    assert.throws(() => model.reserve("A", "MAIN", 2), /1 available/);
    assert.throws(() => model.take("A", "MAIN/A-01-1", 2), /only 1/);
    model.take("A", "MAIN/A-01-1", 1);
    model.pick("A", "MAIN/A-01-1", "MAIN/PACKING", 4);
    model.ship("A", "MAIN/PACKING", 4);
    assert.equal(model.available("A", "MAIN"), 0);
    assert.deepEqual([...model.levels()], []);
  });

  it("counts a quarantine's stock on hand, never available", () => {
    const model = new StockModel();
    model.notSellable.add("MAIN/QUARANTINE");
    model.receive("A", "MAIN/QUARANTINE", 2);
    assert.equal(model.available("A", "MAIN"), 0);
    assert.throws(() => model.reserve("A", "MAIN", 1));
  });
});

it("writes EAN-13 check digits as GS1 does", () => {
  assert.equal(ean13("400638133393"), "4006381333931");
  assert.equal(ean13("590123412345"), "5901234123457");
});
