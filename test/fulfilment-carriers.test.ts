import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  adjustStock,
  createLocation,
  createProduct,
  createTenant,
  createWarehouse,
  salesOrder,
  scopedKey,
  setStatus,
  type TestTenant,
} from "./support/builders";
import { tenantDatabase } from "./support/database";
import { BASE, call, fetchApi } from "./support/http";
import { type Received, stubReceiver } from "./support/webhook-receiver";

let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  [tenant, other] = await Promise.all([createTenant(), createTenant()]);
});

const SERVICE_URL = "https://labels.example.com/warehouse";
const newSecret = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
};

/** Configures `code`'s label service for `who`; answers the secret it was given. */
async function configure(who: TestTenant, code: string, url = SERVICE_URL) {
  const secret = newSecret();
  const res = await call("PUT", `/settings/carriers/${code}`, {
    headers: who.admin,
    body: { adapter: "http", url, secret },
  });
  expect(res.status).toBe(200);
  return secret;
}

/** A confirmed order of 3 units and a `packed` shipment of them in two packages, for carrier `carrier`. */
async function packedShipment(who: TestTenant, carrier: string) {
  const warehouse = await createWarehouse(who);
  const bin = await createLocation(who, warehouse.id);
  const product = await createProduct(who);
  await adjustStock(who, product.id, bin.id, 10);
  const order = (
    await salesOrder(who, [{ productId: product.id, quantity: 3 }], {
      warehouseId: warehouse.id,
      shippingAddress: { street: "1 Main St", city: "Springfield", zip: "12345" },
    })
  ).body.data;
  await setStatus(who, order.id, { status: "confirmed" });
  const line = order.lines[0];
  if (!line) throw new Error("the order has a line");
  const res = await call("POST", `/orders/${order.id}/shipments`, {
    headers: who.admin,
    body: {
      carrier,
      service: "express",
      packages: [
        {
          weight: { value: 1.5, unit: "kg" },
          dimensions: { length: 30, width: 20, height: 10, unit: "cm" },
          lines: [{ orderLineId: line.id, quantity: 2 }],
        },
        { weight: { value: 12, unit: "oz" }, lines: [{ orderLineId: line.id, quantity: 1 }] },
      ],
    },
  });
  expect(res.status).toBe(201);
  const shipment = res.body.data;
  const [first, second] = shipment.packages;
  if (!first || !second) throw new Error("two packages");
  return { order, shipment, first, second };
}

type Shipment = Awaited<ReturnType<typeof packedShipment>>["shipment"];

/** A label service answering each package of `shipment` a tracking number and `label(n)` in `format`. */
const answering =
  (shipment: Shipment, format: "pdf" | "zpl", label: (n: number) => Uint8Array) => (_request: Received) =>
    Response.json({
      packages: shipment.packages.map((p) => ({
        packageId: p.id,
        trackingNumber: `TRK-${p.packageNo}`,
        format,
        label: btoa(String.fromCharCode(...label(p.packageNo))),
      })),
    });

const pdfBytes = (n: number) => new TextEncoder().encode(`%PDF-1.7\n% package ${n}\n%%EOF\n`);
const label = (who: TestTenant, shipmentId: string, packageId: string) =>
  fetchApi(
    new Request(`${BASE}/shipments/${shipmentId}/packages/${packageId}/label`, { headers: who.admin }),
  );
const shipmentOf = async (id: string) =>
  (await call("GET", `/shipments/${id}`, { headers: tenant.admin })).body.data;

describe("PUT, GET and DELETE /settings/carriers/{code}", () => {
  it("stores the label service with its secret sealed, shows it without the secret, and removes it", async () => {
    const secret = newSecret();
    const put = await call("PUT", "/settings/carriers/parcelco", {
      headers: tenant.admin,
      body: { adapter: "http", url: SERVICE_URL, secret },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual({
      code: "parcelco",
      adapter: "http",
      url: SERVICE_URL,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const [row] = (
      await (
        await tenantDatabase(tenant.id)
      )
        .prepare("select secret_ciphertext from carrier_settings where tenant_id = ? and code = 'parcelco'")
        .bind(tenant.id)
        .all<{ secret_ciphertext: string }>()
    ).results;
    expect(row?.secret_ciphertext).toEqual(expect.any(String));
    expect(row?.secret_ciphertext).not.toContain(secret.slice("whsec_".length, 20));

    const replaced = await call("PUT", "/settings/carriers/parcelco", {
      headers: tenant.admin,
      body: { adapter: "http", url: "https://labels2.example.com/x", secret: newSecret() },
    });
    expect(replaced.body.data).toMatchObject({
      url: "https://labels2.example.com/x",
      createdAt: put.body.data.createdAt,
    });
    const one = await call("GET", "/settings/carriers/parcelco", { headers: tenant.admin });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(replaced.body.data);
    const list = await call("GET", "/settings/carriers", { headers: tenant.admin });
    expect(list.body.data).toContainEqual(replaced.body.data);
    expect(JSON.stringify(list.body)).not.toContain("whsec_");

    const removed = await call("DELETE", "/settings/carriers/parcelco", { headers: tenant.admin });
    expect(removed.status).toBe(200);
    expect((await call("GET", "/settings/carriers/parcelco", { headers: tenant.admin })).status).toBe(404);
    expect((await call("DELETE", "/settings/carriers/parcelco", { headers: tenant.admin })).status).toBe(404);
  });

  it("refuses URLs the webhook guard refuses, malformed secrets and codes, in the envelope", async () => {
    const body = (url: string, secret = newSecret()) => ({ adapter: "http", url, secret });
    const put = (code: string, b: unknown) =>
      call("PUT", `/settings/carriers/${code}`, { headers: tenant.admin, body: b });
    for (const url of ["http://labels.example.com/x", "https://10.0.0.1/x", "https://printer.local/x"]) {
      const res = await put("guarded", body(url));
      expect(res.status).toBe(400);
      expect(res.body.errors?.[0]).toMatch(/^url: /);
    }
    const badSecret = await put("guarded", body(SERVICE_URL, "not-a-secret"));
    expect(badSecret.status).toBe(400);
    expect(badSecret.body.errors).toEqual([
      "secret: must be whsec_ followed by the base64 of 24 to 64 random bytes",
    ]);
    expect((await put("guarded", { ...body(SERVICE_URL), adapter: "ftp" })).status).toBe(400);
    expect((await put("-bad", body(SERVICE_URL))).status).toBe(400);
    expect((await call("GET", "/settings/carriers/guarded", { headers: tenant.admin })).status).toBe(404);
  });

  it("keeps at most 50 carriers per tenant; replacing one at the limit still works", async () => {
    const full = await createTenant();
    for (let i = 0; i < 50; i++) await configure(full, `c${i}`);
    const over = await call("PUT", "/settings/carriers/c50", {
      headers: full.admin,
      body: { adapter: "http", url: SERVICE_URL, secret: newSecret() },
    });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual(["A tenant can configure at most 50 carriers"]);
    await configure(full, "c49", "https://other.example.com/labels");
    const list = await call("GET", "/settings/carriers", { headers: full.admin });
    expect(list.body.data).toHaveLength(50);
    expect(list.body.data.find((c) => c.code === "c49")?.url).toBe("https://other.example.com/labels");
  });

  it("needs a credential (401) and admin (403); another tenant's carrier is 404 and not listed", async () => {
    await configure(tenant, "mine");
    const body = { adapter: "http", url: SERVICE_URL, secret: newSecret() };
    expect((await call("GET", "/settings/carriers")).status).toBe(401);
    expect((await call("GET", "/settings/carriers/mine")).status).toBe(401);
    expect((await call("PUT", "/settings/carriers/mine", { body })).status).toBe(401);
    expect((await call("DELETE", "/settings/carriers/mine")).status).toBe(401);
    const writer = await scopedKey(tenant, ["read:orders", "write:orders"]);
    expect((await call("GET", "/settings/carriers", { headers: writer })).status).toBe(403);
    expect((await call("GET", "/settings/carriers/mine", { headers: writer })).status).toBe(403);
    expect((await call("PUT", "/settings/carriers/mine", { headers: writer, body })).status).toBe(403);
    expect((await call("DELETE", "/settings/carriers/mine", { headers: writer })).status).toBe(403);
    expect((await call("GET", "/settings/carriers/mine", { headers: other.admin })).status).toBe(404);
    expect((await call("DELETE", "/settings/carriers/mine", { headers: other.admin })).status).toBe(404);
    const theirs = await call("GET", "/settings/carriers", { headers: other.admin });
    expect(theirs.body.data.map((c) => c.code)).not.toContain("mine");
    expect((await call("GET", "/settings/carriers/mine", { headers: tenant.admin })).status).toBe(200);
  });
});

describe("POST /shipments/{id}/label through a tenant's label service", () => {
  it("sends a signed request with the shipment and stores the PDF labels and tracking numbers it answers", async () => {
    const secret = await configure(tenant, "pdfco");
    const { order, shipment, first, second } = await packedShipment(tenant, "pdfco");
    const { received } = stubReceiver(answering(shipment, "pdf", pdfBytes));
    const res = await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe("labelled");
    expect(res.body.data.packages.map((p) => [p.trackingNumber, p.labelFormat])).toEqual([
      ["TRK-1", "pdf"],
      ["TRK-2", "pdf"],
    ]);
    expect(await shipmentOf(shipment.id)).toEqual(res.body.data);

    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.url).toBe(SERVICE_URL);
    const payload = new Webhook(secret).verify(request!.body, request!.headers) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload.type).toBe("shipment.label_requested");
    expect(payload.data).toMatchObject({
      carrier: "pdfco",
      service: "express",
      orderNumber: order.number,
      shipTo: { street: "1 Main St", city: "Springfield", zip: "12345" },
      shipFrom: { name: expect.any(String) },
      shipment: {
        id: shipment.id,
        packages: [
          {
            id: first.id,
            sscc: first.sscc,
            weight: { value: 1.5, unit: "kg" },
            dimensions: { length: 30, width: 20, height: 10, unit: "cm" },
          },
          { id: second.id, sscc: second.sscc, weight: { value: 12, unit: "oz" } },
        ],
      },
    });
    expect(() => new Webhook(newSecret()).verify(request!.body, request!.headers)).toThrow();

    const served = await label(tenant, shipment.id, second.id);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("content-disposition")).toBe(`attachment; filename="${second.sscc}.pdf"`);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pdfBytes(2));
  });

  it("stores ZPL labels as answered", async () => {
    await configure(tenant, "zplco");
    const { shipment, first } = await packedShipment(tenant, "zplco");
    const zpl = (n: number) => new TextEncoder().encode(`^XA^FO50,50^FDPARCEL ${n}^FS^XZ`);
    stubReceiver(answering(shipment, "zpl", zpl));
    const res = await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data.packages.map((p) => p.labelFormat)).toEqual(["zpl", "zpl"]);
    const served = await label(tenant, shipment.id, first.id);
    expect(served.headers.get("content-type")).toBe("application/zpl");
    expect(await served.text()).toBe("^XA^FO50,50^FDPARCEL 1^FS^XZ");
  });

  it("is a 502 quoting the service when it answers 500, and the shipment stays packed with no label", async () => {
    await configure(tenant, "downco");
    const { shipment, first } = await packedShipment(tenant, "downco");
    stubReceiver(() => new Response(`label printer on fire ${"x".repeat(5000)}`, { status: 500 }));
    const res = await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body: {} });
    expect(res.status).toBe(502);
    expect(res.body.message).toBe("The label service of carrier downco failed: it answered 500");
    expect(res.body.errors?.[0]).toBe("labelService: it answered 500");
    // The status, and at most 100 characters of the answer (docs/decisions/fulfilment.md).
    expect(res.body.errors?.[1]).toBe(`answer: label printer on fire ${"x".repeat(78)}…`);
    expect(await shipmentOf(shipment.id)).toEqual(shipment);
    expect((await label(tenant, shipment.id, first.id)).status).toBe(404);
  });

  it("quotes no markup and no control or invisible characters of a failing answer, at most 100 characters", async () => {
    await configure(tenant, "pageco");
    const { shipment } = await packedShipment(tenant, "pageco");
    const page =
      "<!doctype html><html><head><style>body { color: red }</style><script>var token = 'abc';</script></head>" +
      "<body><!-- internal note --><h1>Bad\u0007 Gateway\u202e</h1>\r\n\n  <p>upstream <b>db-7.internal</b>" +
      ` said ${"no ".repeat(100)}</p></body></html>`;
    stubReceiver(() => new Response(page, { status: 503, headers: { "content-type": "text/html" } }));
    const res = await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body: {} });
    expect(res.status).toBe(502);
    expect(res.body.errors?.[0]).toBe("labelService: it answered 503");
    const excerpt = `Bad Gateway upstream db-7.internal said ${"no ".repeat(100)}`.slice(0, 100);
    expect(res.body.errors?.[1]).toBe(`answer: ${excerpt}…`);
  });

  it("is a 502 on an answer that is not JSON or leaves a package out; nothing is stored", async () => {
    await configure(tenant, "oddco");
    const { shipment } = await packedShipment(tenant, "oddco");
    stubReceiver(() => new Response("<html>gateway</html>", { headers: { "content-type": "text/html" } }));
    const html = await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body: {} });
    expect(html.status).toBe(502);
    expect(html.body.errors).toEqual([
      "labelService: the answer is not {packages: [{packageId, trackingNumber, format, label}]}",
      "answer: gateway",
    ]);

    const full = answering(shipment, "pdf", pdfBytes);
    stubReceiver(async (request) => {
      const body = (await full(request).json()) as { packages: unknown[] };
      return Response.json({ packages: body.packages.slice(0, 1) });
    });
    const partial = await call("POST", `/shipments/${shipment.id}/label`, {
      headers: tenant.admin,
      body: {},
    });
    expect(partial.status).toBe(502);
    expect(partial.body.errors?.[0]).toBe(
      "labelService: the answer must name every package of the shipment exactly once",
    );
    expect(await shipmentOf(shipment.id)).toEqual(shipment);
  });

  it("is a 502 when the service has not answered in 10 s; nothing is stored", async () => {
    await configure(tenant, "slowco");
    const { shipment, first } = await packedShipment(tenant, "slowco");
    // A service that never answers: the request ends only when the API gives up on it.
    let aborted = false;
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_input, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener("abort", () => {
            aborted = true;
            reject(init.signal?.reason);
          }),
        ),
    );
    const res = await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body: {} });
    expect(res.status).toBe(502);
    expect(res.body.errors).toEqual(["labelService: timed out after 10 s"]);
    expect(aborted).toBe(true);
    expect(await shipmentOf(shipment.id)).toEqual(shipment);
    expect((await label(tenant, shipment.id, first.id)).status).toBe(404);
  });

  it("reads an answer of exactly 5 MiB and refuses one a byte longer, storing nothing", async () => {
    await configure(tenant, "bigco");
    const { shipment, first } = await packedShipment(tenant, "bigco");
    const full = answering(shipment, "pdf", pdfBytes);
    // The same well-formed answer, padded with JSON whitespace to the limit and one byte past it.
    const padded = (bytes: number) =>
      stubReceiver(async (request) => {
        const json = await full(request).text();
        return new Response(json + " ".repeat(bytes - json.length), {
          headers: { "content-type": "application/json" },
        });
      });
    padded(5 * 1024 * 1024 + 1);
    const over = await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body: {} });
    expect(over.status).toBe(502);
    expect(over.body.errors).toEqual(["labelService: the answer is larger than 5242880 bytes"]);
    expect(await shipmentOf(shipment.id)).toEqual(shipment);
    expect((await label(tenant, shipment.id, first.id)).status).toBe(404);

    padded(5 * 1024 * 1024);
    const at = await call("POST", `/shipments/${shipment.id}/label`, { headers: tenant.admin, body: {} });
    expect(at.status).toBe(200);
    expect((await label(tenant, shipment.id, first.id)).status).toBe(200);
  });

  it("takes no tracking numbers from the caller for a carrier with a label service", async () => {
    await configure(tenant, "svcco");
    const { shipment } = await packedShipment(tenant, "svcco");
    const { received } = stubReceiver();
    const res = await call("POST", `/shipments/${shipment.id}/label`, {
      headers: tenant.admin,
      body: { trackingNumbers: shipment.packages.map((p) => ({ packageId: p.id, trackingNumber: "X1" })) },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      "trackingNumbers: carrier svcco's label service assigns the tracking numbers; send none",
    ]);
    expect(received).toHaveLength(0);
  });

  it("never uses another tenant's label service: their shipment of the same code is labelled manually", async () => {
    await configure(tenant, "sharedname");
    const { shipment } = await packedShipment(other, "sharedname");
    const { received } = stubReceiver();
    const res = await call("POST", `/shipments/${shipment.id}/label`, {
      headers: other.admin,
      body: {
        trackingNumbers: shipment.packages.map((p) => ({
          packageId: p.id,
          trackingNumber: `M${p.packageNo}`,
        })),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.packages.map((p) => p.labelFormat)).toEqual(["zpl", "zpl"]);
    expect(received).toHaveLength(0);
  });
});
