import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { LoadedList } from "../ui/loaded-list";
import { codeOf } from "../ui/lookups";
import { MerchantField, useMerchantChoice } from "../ui/merchant-field";
import { useMoney } from "../ui/money";
import { choicesOf, SelectField } from "../ui/select-field";
import { Table } from "../ui/table";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";
import { ProductDialog } from "./product-form";
import { ImportDialog } from "./product-import";

type Status = Schemas["Product"]["status"];

/** The product list; its filters live in the URL, so a filtered page can be bookmarked and shared. */
export function Products() {
  useDocumentTitle("Products");
  const money = useMoney();
  const { query, path, route } = useLocation();
  const [dialog, setDialog] = useState<"new" | "import" | null>(null);
  const search = query.search ?? "";
  const category = query.category ?? "";
  const status = (query.status ?? "") as Status | "";
  const merchant = query.merchant ?? "";
  const merchants = useMerchantChoice();
  const page = Number(query.page ?? "1") || 1;
  const products = useLoad(
    () =>
      unwrap(
        api.GET("/api/v1/products", {
          params: {
            query: {
              page,
              pageSize: 20,
              sort: "sku",
              ...(search && { search }),
              ...(category && { category }),
              ...(status && { status }),
              ...(merchant && { merchantId: merchant }),
            },
          },
        }),
      ),
    [search, category, status, merchant, page],
  );

  const show = (next: Record<string, string | number>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ search, category, status, merchant, page, ...next })) {
      if (value !== "" && !(key === "page" && value === 1)) params.set(key, String(value));
    }
    const qs = params.toString();
    route(qs ? `${path}?${qs}` : path);
  };

  return (
    <>
      <h1 tabIndex={-1}>Products</h1>
      <div class="toolbar">
        <button type="button" class="button button-primary" onClick={() => setDialog("new")}>
          New product
        </button>
        <button type="button" class="button" onClick={() => setDialog("import")}>
          Import CSV
        </button>
      </div>
      {dialog === "new" && (
        <ProductDialog onClose={() => setDialog(null)} onSaved={(p) => route(`/app/products/${p.id}`)} />
      )}
      {dialog === "import" && (
        <ImportDialog onClose={() => setDialog(null)} onJob={(id) => route(`/app/jobs/${id}`)} />
      )}
      <form
        class="filters"
        aria-label="Filter products"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          show({
            search: String(form.get("search") ?? "").trim(),
            category: String(form.get("category") ?? "").trim(),
            status: String(form.get("status") ?? ""),
            merchant: String(form.get("merchant") ?? ""),
            page: 1,
          });
        }}
      >
        <label class="field">
          <span>Search</span>
          <input
            name="search"
            type="search"
            defaultValue={search}
            placeholder="SKU, name or barcode"
            maxLength={100}
          />
        </label>
        <label class="field">
          <span>Category</span>
          <input name="category" defaultValue={category} maxLength={100} />
        </label>
        <SelectField
          label="Status"
          name="status"
          empty="Any"
          choices={choicesOf(["Active", "Inactive"])}
          initial={status}
        />
        <MerchantField name="merchant" empty="Every owner" initial={merchant} />
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <LoadedList load={products} empty="No products match." onPage={(next) => show({ page: next })}>
        {(list) => (
          <Table
            label="Products"
            columns={[
              "SKU",
              "Name",
              "Category",
              "Status",
              ...(merchants ? ["Merchant"] : []),
              { label: "Price", number: true },
              { label: "Reorder point", number: true },
            ]}
          >
            {list.items.map((product) => (
              <tr key={product.id}>
                <td>
                  <a href={`/app/products/${product.id}`}>{product.sku}</a>
                </td>
                <td>{product.name}</td>
                <td>{product.category ?? "—"}</td>
                <td>{product.status}</td>
                {merchants && <td>{codeOf(merchants, product.merchantId)}</td>}
                <td class="number">{money(product.price)}</td>
                <td class="number">{product.reorderPoint}</td>
              </tr>
            ))}
          </Table>
        )}
      </LoadedList>
    </>
  );
}
