import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createTenant, invitedMember, ok, type TestTenant } from "./support/api";
import { expectWellBehaved, openPage, signIn } from "./support/browser";

// An edit never loses what its form does not show (issue #45): a save without a change leaves every record byte for
// byte as it was (it sends nothing), and a change of one field leaves every other field as it was.

/** Everything the edit dialogs of the app edit, each with fields their forms do not show or a save used to reset. */
async function records(tenant: TestTenant) {
  const { api } = tenant;
  const warehouse = await ok(
    api.POST("/api/v1/warehouses", {
      body: {
        code: "MAIN",
        name: "Main warehouse",
        address: { street: "1 Dock Rd", city: "Oakland", zip: "94607", state: "CA", country: "US" },
      },
    }),
  );
  const location = (body: Record<string, unknown>) =>
    ok(
      api.POST("/api/v1/locations", {
        body: { warehouseId: warehouse.id, code: "X", name: "X", type: "bin", ...body } as never,
      }),
    );
  const zone = await location({ code: "Z1", name: "Zone one", type: "zone" });
  const quarantine = await location({
    code: "Q1",
    name: "Quarantine",
    type: "staging",
    sellable: false,
    pickSequence: 7,
    parentId: zone.id,
  });
  const packing = await location({ code: "PACK", name: "Packing bench", type: "packing", pickSequence: 3 });
  const merchant = await ok(api.POST("/api/v1/merchants", { body: { code: "ACME", name: "Acme Outdoor" } }));
  const product = await ok(
    api.POST("/api/v1/products", {
      body: {
        sku: "MUG-1",
        name: "Mug",
        barcode: "2000000000015",
        category: "Kitchen",
        unit: "each",
        price: 8.5,
        cost: 3.25,
        reorderPoint: 4,
        description: "Stoneware",
        tracking: "lot",
        merchantId: merchant.id,
        packagings: [{ code: "case", name: "Case of 6", quantity: 6, barcode: "12000000000012" }],
      },
    }),
  );
  await ok(
    api.PATCH("/api/v1/products/{id}", {
      params: { path: { id: product.id } },
      body: { status: "Inactive" },
    }),
  );
  const webhook = await ok(
    api.POST("/api/v1/webhooks", {
      body: {
        url: "https://hooks.example.com/wms",
        events: ["order.created", "inventory.adjusted"],
        description: "ERP",
      },
    }),
  );
  const member = await invitedMember(tenant, {
    email: `lin-${tenant.id}@e2e.example`,
    name: "Lin",
    password: "lin-password-1",
    role: "viewer",
  });
  await ok(
    api.PUT("/api/v1/users/{id}", {
      params: { path: { id: member.id } },
      body: { role: "viewer", merchantId: merchant.id },
    }),
  );
  return { warehouse, zone, quarantine, packing, merchant, product, webhook, member };
}

/** Each record as the API holds it now. */
async function current({ api }: TestTenant, r: Awaited<ReturnType<typeof records>>) {
  const id = (value: { id: string }) => ({ params: { path: { id: value.id } } });
  return {
    warehouse: await ok(api.GET("/api/v1/warehouses/{id}", id(r.warehouse))),
    zone: await ok(api.GET("/api/v1/locations/{id}", id(r.zone))),
    quarantine: await ok(api.GET("/api/v1/locations/{id}", id(r.quarantine))),
    packing: await ok(api.GET("/api/v1/locations/{id}", id(r.packing))),
    merchant: await ok(api.GET("/api/v1/merchants/{id}", id(r.merchant))),
    product: await ok(api.GET("/api/v1/products/{id}", id(r.product))),
    webhook: await ok(api.GET("/api/v1/webhooks/{id}", id(r.webhook))),
    member: await ok(api.GET("/api/v1/users/{id}", id(r.member))),
  };
}

/** Opens the dialog `open` names, saves it as it is (after `change`, if any) and waits for it to close. */
async function save(
  page: Page,
  open: string,
  dialog: string,
  change?: (dialog: ReturnType<Page["getByRole"]>) => Promise<void>,
) {
  await page.getByRole("button", { name: open, exact: true }).click();
  const form = page.getByRole("dialog", { name: dialog });
  await form.getByRole("button", { name: "Save" }).waitFor();
  await change?.(form);
  await form.getByRole("button", { name: "Save" }).click();
  await form.waitFor({ state: "detached" });
}

describe("edit dialogs change only what the person changed", () => {
  it("a save without a change sends nothing and leaves every record byte for byte the same", {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const r = await records(tenant);
    const before = await current(tenant, r);
    const page = await openPage("/app/warehouses");
    const writes: string[] = [];
    page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      // A page load signs in again (POST /auth/refresh): not an edit.
      if (request.method() !== "GET" && !pathname.startsWith("/api/v1/auth/"))
        writes.push(`${request.method()} ${pathname}`);
    });
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole("cell", { name: "Q1", exact: true }).waitFor();
    await save(page, "Edit MAIN", "Edit MAIN");
    for (const code of ["Z1", "Q1", "PACK"]) await save(page, `Edit ${code}`, `Edit ${code}`);
    await page.goto("/app/merchants");
    await save(page, "Edit ACME", "Edit ACME");
    await page.goto(`/app/products/${r.product.id}`);
    await save(page, "Edit", "Edit MUG-1");
    await page.goto(`/app/configuration/webhooks/${r.webhook.id}`);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Nothing changed.").waitFor();
    expect(writes).toEqual([]);
    expect(await current(tenant, r)).toEqual(before);
    expectWellBehaved(page);
  });

  it("a change of one field keeps every other; the location dialog edits sellable, pick sequence and parent", {
    timeout: 120_000,
  }, async () => {
    const tenant = await createTenant();
    const r = await records(tenant);
    const before = await current(tenant, r);
    const page = await openPage("/app/warehouses");
    await signIn(page, tenant.email, tenant.password);
    const changed = <T extends { updatedAt?: string }>(now: T, was: T, fields: Partial<T>) => {
      expect(now).toEqual({ ...was, ...fields, updatedAt: now.updatedAt });
    };

    await save(page, "Edit MAIN", "Edit MAIN", (d) => d.getByLabel("Name").fill("Main depot"));
    await save(page, "Edit Q1", "Edit Q1", (d) => d.getByLabel("Name").fill("Quarantine cage"));
    await save(page, "Edit PACK", "Edit PACK", (d) => d.getByLabel("Pick sequence").fill("4"));
    // The zone becomes a quarantine inside nothing, with a pick sequence.
    await save(page, "Edit Z1", "Edit Z1", async (d) => {
      await d.getByLabel("Sellable").uncheck();
      await d.getByLabel("Pick sequence").fill("1");
    });
    // A quarantine location made in the app.
    await page.getByRole("button", { name: "New location" }).click();
    const create = page.getByRole("dialog", { name: "New location in MAIN" });
    await create.getByLabel("Code").fill("Q2");
    await create.getByLabel("Name").fill("Returns quarantine");
    await create.locator("select[name=type]").selectOption("staging");
    await create.locator("select[name=parentId]").selectOption({ label: "Z1" });
    await create.getByLabel("Sellable").uncheck();
    await create.getByRole("button", { name: "Create location" }).click();
    await page.getByRole("cell", { name: "Q2", exact: true }).waitFor();

    await page.goto("/app/merchants");
    await save(page, "Edit ACME", "Edit ACME", (d) => d.getByLabel("Name").fill("Acme Outdoor GmbH"));
    await page.goto(`/app/products/${r.product.id}`);
    await save(page, "Edit", "Edit MUG-1", (d) =>
      d.getByLabel("Name", { exact: true }).fill("Stoneware mug"),
    );
    await page.goto(`/app/configuration/webhooks/${r.webhook.id}`);
    await page.getByLabel("Description (optional)").fill("ERP sync");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Saved.").waitFor();
    await page.goto("/app/configuration/users");
    await page.getByLabel("Role of Lin", { exact: true }).selectOption("operator");
    await page.getByRole("button", { name: "Change role of Lin" }).click();
    await expect
      .poll(
        async () =>
          (await ok(tenant.api.GET("/api/v1/users/{id}", { params: { path: { id: r.member.id } } }))).role,
      )
      .toBe("operator");

    const after = await current(tenant, r);
    changed(after.warehouse, before.warehouse, { name: "Main depot" });
    changed(after.quarantine, before.quarantine, { name: "Quarantine cage" });
    changed(after.packing, before.packing, { pickSequence: 4 });
    changed(after.zone, before.zone, { sellable: false, pickSequence: 1 });
    changed(after.merchant, before.merchant, { name: "Acme Outdoor GmbH" });
    expect(after.product).toEqual({
      ...before.product,
      name: "Stoneware mug",
      updatedAt: after.product.updatedAt,
    });
    changed(after.webhook, before.webhook, { description: "ERP sync" });
    expect(after.member).toEqual({ ...before.member, role: "operator" });
    const q2 = await ok(
      tenant.api.GET("/api/v1/locations", {
        params: { query: { warehouseId: r.warehouse.id, search: "Q2" } },
      }),
    );
    expect(q2.items.map((l) => [l.code, l.type, l.sellable, l.parentId])).toEqual([
      ["Q2", "staging", false, r.zone.id],
    ]);
    expectWellBehaved(page);
  });
});
