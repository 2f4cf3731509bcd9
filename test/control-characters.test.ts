import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/builders";
import { call } from "./support/http";

// Control characters sent where text is expected: each is refused with a 400 naming its field, and nothing
// carrying one is stored. Tab, line feed and carriage return stay allowed in body text (notes, descriptions).

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const refused = (field: string) => `${field}: must not contain control characters`;
const productCount = async () =>
  (await call("GET", "/products?pageSize=1", { headers: tenant.admin })).body.data.totalCount as number;

describe("control characters", () => {
  it("a NUL in the product search is a 400 naming the parameter, not a database error", async () => {
    const res = await call("GET", "/products?search=abc%00def", { headers: tenant.admin });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([refused("search")]);
  });

  it("every control character in a query parameter is refused, C1 controls included", async () => {
    for (const encoded of ["%01", "%1B", "%7F", "%C2%85", "%0A", "%09"]) {
      const res = await call("GET", `/warehouses?search=a${encoded}b`, { headers: tenant.admin });
      expect(res.status, encoded).toBe(400);
      expect(res.body.errors, encoded).toEqual([refused("search")]);
    }
    const named = await call("GET", "/warehouses?se%00arch=x", { headers: tenant.admin });
    expect(named.body.errors).toEqual([refused("se\\u0000arch")]);
  });

  it("a control or format character written raw in the URL is refused as its escape would be", async () => {
    // The middleware looks at a query only when it holds a percent escape: the URL parser writes these as escapes.
    for (const raw of ["\u0001", "\u007f", "\u0085"]) {
      const res = await call("GET", `/warehouses?search=a${raw}b`, { headers: tenant.admin });
      expect(res.status, JSON.stringify(raw)).toBe(400);
      expect(res.body.errors).toEqual([refused("search")]);
    }
    const format = await call("GET", "/products?category=ab\u200bc", { headers: tenant.admin });
    expect(format.status).toBe(400);
    expect(format.body.errors).toEqual(["category: must not contain invisible format characters (U+200B)"]);
  });

  it("a NUL in a body string is refused and nothing is stored", async () => {
    const before = await productCount();
    const res = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: "a\u0000b", name: "Nul" },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([refused("sku")]);
    expect(await productCount()).toBe(before);
  });

  it("names nested fields and keys by their path", async () => {
    const res = await call("POST", "/orders/sales", {
      headers: tenant.admin,
      body: {
        customerId: crypto.randomUUID(),
        lines: [{ productId: crypto.randomUUID(), quantity: 1, price: 1 }],
        shippingAddress: { street: "Main\u001b[31m", city: "Bell\u0007", zip: "1", "x\u0000": 1 },
        notes: "delete\u007f",
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      refused("shippingAddress.street"),
      refused("shippingAddress.city"),
      refused("shippingAddress.x\\u0000"),
      refused("notes"),
    ]);
  });

  it("tab, line feed and carriage return stay allowed in body text", async () => {
    const description = "first line\r\nsecond\tcolumn\nthird";
    const res = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: "TEXT-OK", name: "Multi-line", description },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.description).toBe(description);
  });

  it("a CSV import with a control character names its line and imports nothing", async () => {
    const before = await productCount();
    const res = await call("POST", "/products/import", {
      headers: { ...tenant.admin, "content-type": "text/csv" },
      body: "sku,name\nCSV-1,Fine\nCSV-2,Bro\u0000ken\n",
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([refused("body: line 3")]);
    expect(await productCount()).toBe(before);
  });

  it("a JSON import names the row's field", async () => {
    const res = await call("POST", "/products/import", {
      headers: tenant.admin,
      body: [
        { sku: "JSON-1", name: "Fine" },
        { sku: "JSON-2", name: "Bell\u0007" },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([refused("[1].name")]);
  });
});

// Format characters (category Cf) are invisible: refused in identifiers, refused in names but for ZWNJ and ZWJ,
// allowed in free text.
const invisible = (field: string, codePoint: string) =>
  `${field}: must not contain invisible format characters (${codePoint})`;

describe("format characters (bidi overrides, zero-width characters)", () => {
  it("a bidi override or a zero-width space in a SKU, a name, a code or a serial is a 400 naming it; nothing is stored", async () => {
    const before = await productCount();
    const product = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: "AB\u200bC", name: "Invoice\u202Efdp.exe", category: "tools\u2066", unit: "pcs" },
    });
    expect(product.status).toBe(400);
    expect(product.body.errors).toEqual([
      invisible("sku", "U+200B"),
      invisible("name", "U+202E"),
      invisible("category", "U+2066"),
    ]);
    expect(await productCount()).toBe(before);

    const warehouse = await call("POST", "/warehouses", {
      headers: tenant.admin,
      body: { code: "WH\u00ad1", name: "Main" },
    });
    expect(warehouse.status).toBe(400);
    expect(warehouse.body.errors).toEqual([invisible("code", "U+00AD")]);

    const receipt = await call("POST", "/inventory/adjustments", {
      headers: tenant.admin,
      body: {
        productId: crypto.randomUUID(),
        locationId: crypto.randomUUID(),
        quantity: 2,
        reason: "received",
        serialNumbers: ["SN-1", "SN\u200d2"],
      },
    });
    expect(receipt.status).toBe(400);
    expect(receipt.body.errors).toEqual([invisible("serialNumbers[1]", "U+200D")]);

    const filter = await call("GET", `/inventory/stock?sku=${encodeURIComponent("A\u200eB")}`, {
      headers: tenant.admin,
    });
    expect(filter.status).toBe(400);
    expect(filter.body.errors).toEqual([invisible("sku", "U+200E")]);
  });

  it("names keep ZWNJ and ZWJ (Persian, Indic scripts, emoji); free text keeps every format character", async () => {
    const name = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \ud83d\udc69\u200d\ud83d\udd27";
    const description = "\u05e9\u05dc\u05d5\u05dd \u200f(v2)\u200f \u202bquoted\u202c";
    const res = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: `FMT-${crypto.randomUUID()}`, name, description },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name, description });
  });

  it("an escaped format character is refused as a raw one is", async () => {
    const res = await call("POST", "/products", {
      headers: { ...tenant.admin, "content-type": "application/json" },
      body: '{"sku":"ESC-\\u202e1","name":"Escaped"}',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([invisible("sku", "U+202E")]);
  });

  it("a CSV import names the row and column, and imports nothing", async () => {
    const before = await productCount();
    const res = await call("POST", "/products/import", {
      headers: { ...tenant.admin, "content-type": "text/csv" },
      body: 'sku,name,description\nCSV-F1,Fine,"\u200fok"\nCSV-F2,"Bad\u202e, name",x\n',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([invisible("row 2: name", "U+202E")]);
    expect(await productCount()).toBe(before);
  });
});

// A lone UTF-16 surrogate is not a character: stored, it became U+FFFD, so `TWIN-\ud800` and `TWIN-\udfff` were
// two SKUs that read back identical (issue #44). Refused everywhere, as a control character is.
describe("unpaired surrogates and deep nesting", () => {
  const lone = (field: string, codePoint: string) =>
    `${field}: must not contain an unpaired surrogate (${codePoint}), which is not a character`;

  it("a SKU, a name, a note or a key holding a lone surrogate is a 400 naming it; nothing is stored", async () => {
    const before = await productCount();
    for (const [sku, codePoint] of [
      ["TWIN-\ud800", "U+D800"],
      ["TWIN-\udbff", "U+DBFF"],
      ["TWIN-\udfff", "U+DFFF"],
    ] as const) {
      const res = await call("POST", "/products", { headers: tenant.admin, body: { sku, name: "Twin" } });
      expect(res.status, codePoint).toBe(400);
      expect(res.body.errors).toEqual([lone("sku", codePoint)]);
    }
    const order = await call("POST", "/orders/sales", {
      headers: tenant.admin,
      body: {
        customerId: crypto.randomUUID(),
        lines: [{ productId: crypto.randomUUID(), quantity: 1, price: 1 }],
        shippingAddress: { street: "1 Main St", city: "x\udc00y", zip: "1", "k\ud801": 1 },
        notes: "half an emoji \ud83d",
      },
    });
    expect(order.status).toBe(400);
    expect(order.body.errors).toEqual([
      lone("shippingAddress.city", "U+DC00"),
      lone("shippingAddress.k\\ud801", "U+D801"),
      lone("notes", "U+D83D"),
    ]);
    expect(await productCount()).toBe(before);
    // A whole pair is one character (an emoji) and passes.
    const emoji = await call("POST", "/products", {
      headers: tenant.admin,
      body: { sku: `PAIR-${crypto.randomUUID()}`, name: "Mug \ud83d\ude00" },
    });
    expect(emoji.status).toBe(201);
    expect(emoji.body.data.name).toBe("Mug \ud83d\ude00");
  });

  it("a body nested deeper than 32 levels is a 400 when it is walked, not a stack overflow", async () => {
    const depth = 100_000;
    const res = await call("POST", "/products", {
      headers: { ...tenant.admin, "content-type": "application/json" },
      body: `{"sku":"DEEP-1","name":${"[".repeat(depth)}"\\u0041"${"]".repeat(depth)}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([`name${"[0]".repeat(31)}: must not be nested deeper than 32 levels`]);
  });
});
