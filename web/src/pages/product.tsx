import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, unwrap } from "../api/client";
import { ErrorMessage } from "../ui/error-message";
import { useSubmit } from "../ui/form";
import { formatDateTime } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { LoadedList } from "../ui/loaded-list";
import { merchantName, useMerchantChoice } from "../ui/merchant-field";
import { useMoney } from "../ui/money";
import { useProductsById } from "../ui/products-lookup";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { ProductDialog } from "./product-form";

/** One product: its details, its stock at every location, and its latest ledger rows. */
export function Product() {
  const { params } = useRoute();
  const id = params.id ?? "";
  const product = useLoad(() => unwrap(api.GET("/api/v1/products/{id}", { params: { path: { id } } })), [id]);
  const stock = useLoad(async () => {
    const page = await unwrap(
      api.GET("/api/v1/inventory/stock", { params: { query: { productId: id, pageSize: 100 } } }),
    );
    // Without asOf every item is a current level (with reserved and available).
    return { ...page, items: page.items.flatMap((level) => ("reserved" in level ? [level] : [])) };
  }, [id]);
  const movements = useLoad(
    () =>
      unwrap(api.GET("/api/v1/inventory/movements", { params: { query: { productId: id, pageSize: 20 } } })),
    [id],
  );
  const warehouses = useLoad(
    () => unwrap(api.GET("/api/v1/warehouses", { params: { query: { pageSize: 100 } } })),
    [],
  );
  const parts = useProductsById(product.data?.components.map((c) => c.productId) ?? []);
  const [editing, setEditing] = useState(false);
  // Archiving marks the product Inactive (it stays in the ledger and in old orders); Reactivate undoes it.
  const archive = useSubmit(async (status: "Active" | "Inactive") => {
    await unwrap(api.PATCH("/api/v1/products/{id}", { params: { path: { id } }, body: { status } }));
    product.reload();
  });
  const title = product.data ? `${product.data.sku} ${product.data.name}` : "Product";
  useDocumentTitle(title);
  const money = useMoney();
  const merchants = useMerchantChoice();
  const warehouseCode = (warehouseId: string) =>
    warehouses.data?.items.find((w) => w.id === warehouseId)?.code ?? warehouseId.slice(0, 8);
  const locationCode = (locationId: string) =>
    stock.data?.items.find((level) => level.locationId === locationId)?.locationCode ??
    locationId.slice(0, 8);

  return (
    <>
      <p>
        <a href="/app/products">← Products</a>
      </p>
      <h1 tabIndex={-1}>{title}</h1>
      <Loaded load={product}>
        {(p) => (
          <>
            <div class="toolbar">
              <button type="button" class="button" onClick={() => setEditing(true)}>
                Edit
              </button>
              <button
                type="button"
                class="button"
                disabled={archive.busy}
                onClick={() => void archive.run(p.status === "Active" ? "Inactive" : "Active")}
              >
                {p.status === "Active" ? "Archive" : "Reactivate"}
              </button>
            </div>
            <ErrorMessage error={archive.error} />
            {editing && (
              <ProductDialog product={p} onClose={() => setEditing(false)} onSaved={product.reload} />
            )}
            <dl class="details">
              <dt>SKU</dt>
              <dd>{p.sku}</dd>
              <dt>Barcode</dt>
              <dd>{p.barcode ?? "—"}</dd>
              <dt>Category</dt>
              <dd>{p.category ?? "—"}</dd>
              <dt>Status</dt>
              <dd>{p.status}</dd>
              {merchants && (
                <>
                  <dt>Merchant</dt>
                  <dd>{merchantName(merchants, p.merchantId)}</dd>
                </>
              )}
              <dt>Unit</dt>
              <dd>{p.unit ?? "—"}</dd>
              <dt>Price</dt>
              <dd>{money(p.price)}</dd>
              <dt>Cost</dt>
              <dd>{money(p.cost)}</dd>
              <dt>Reorder point</dt>
              <dd>{p.reorderPoint}</dd>
              <dt>Tracking</dt>
              <dd>{p.tracking}</dd>
              <dt>Type</dt>
              <dd>{p.type === "kit" ? "Kit" : "Stocked"}</dd>
              {p.type === "kit" && (
                <>
                  <dt>Components</dt>
                  <dd>
                    {p.components
                      .map(
                        (c) =>
                          `${parts.data?.get(c.productId)?.sku ?? c.productId.slice(0, 8)} × ${c.quantity}`,
                      )
                      .join(", ")}
                  </dd>
                </>
              )}
              {p.packagings.length > 0 && (
                <>
                  <dt>Packagings</dt>
                  <dd>{p.packagings.map((k) => `${k.name} (${k.code}, ${k.quantity} units)`).join(", ")}</dd>
                </>
              )}
              <dt>Updated</dt>
              <dd>{formatDateTime(p.updatedAt)}</dd>
            </dl>
          </>
        )}
      </Loaded>
      <section aria-labelledby="stock-heading">
        <h2 id="stock-heading">Stock per location</h2>
        <LoadedList load={stock} empty="Not stocked anywhere.">
          {(levels) => {
            // Lot and expiry columns only for stock that has lots (lot-tracked products).
            const lotted = levels.items.some((level) => level.lotNumber !== null);
            return (
              <Table
                label="Stock per location"
                columns={[
                  "Warehouse",
                  "Location",
                  ...(lotted ? ["Lot", "Expires"] : []),
                  { label: "On hand", number: true },
                  { label: "Reserved", number: true },
                  { label: "Available", number: true },
                ]}
              >
                {levels.items.map((level) => (
                  <tr key={`${level.locationId}:${level.lotId ?? ""}`}>
                    <td>{warehouseCode(level.warehouseId)}</td>
                    <td>{level.locationCode}</td>
                    {lotted && <td>{level.lotNumber ?? "—"}</td>}
                    {lotted && <td>{level.expiresAt ?? "—"}</td>}
                    <td class="number">{level.onHand}</td>
                    <td class="number">{level.reserved}</td>
                    <td class="number">{level.available}</td>
                  </tr>
                ))}
              </Table>
            );
          }}
        </LoadedList>
      </section>
      <section aria-labelledby="movements-heading">
        <h2 id="movements-heading">Recent movements</h2>
        <LoadedList load={movements} empty="No movements yet.">
          {(list) => (
            <Table
              label="Recent movements"
              columns={[
                "When",
                "Location",
                { label: "Change", number: true },
                { label: "On hand after", number: true },
                "Reason",
                "By",
              ]}
            >
              {list.items.map((m) => (
                <tr key={m.id}>
                  <td>{formatDateTime(m.createdAt)}</td>
                  <td>{locationCode(m.locationId)}</td>
                  <td class="number">{m.delta > 0 ? `+${m.delta}` : m.delta}</td>
                  <td class="number">{m.onHandAfter}</td>
                  <td>
                    {m.reason}
                    {m.notes ? ` (${m.notes})` : ""}
                  </td>
                  <td>{m.actorType.replace("_", " ")}</td>
                </tr>
              ))}
            </Table>
          )}
        </LoadedList>
      </section>
    </>
  );
}
