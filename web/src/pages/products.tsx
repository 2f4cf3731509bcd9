import { useLocation } from "preact-iso";
import { api, type Schemas, unwrap } from "../api/client";
import { formatMoney } from "../ui/format";
import { Loaded } from "../ui/loaded";
import { Pager } from "../ui/pager";
import { useDocumentTitle } from "../ui/title";
import { useLoad } from "../ui/use-load";

type Status = Schemas["Product"]["status"];

/** The product list; its filters live in the URL, so a filtered page can be bookmarked and shared. */
export function Products() {
  useDocumentTitle("Products");
  const { query, path, route } = useLocation();
  const search = query.search ?? "";
  const category = query.category ?? "";
  const status = (query.status ?? "") as Status | "";
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
            },
          },
        }),
      ),
    [search, category, status, page],
  );

  const show = (next: Record<string, string | number>) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries({ search, category, status, page, ...next })) {
      if (value !== "" && !(key === "page" && value === 1)) params.set(key, String(value));
    }
    const qs = params.toString();
    route(qs ? `${path}?${qs}` : path);
  };

  return (
    <>
      <h1 tabIndex={-1}>Products</h1>
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
        <label class="field">
          <span>Status</span>
          <select name="status" defaultValue={status}>
            <option value="">Any</option>
            <option value="Active">Active</option>
            <option value="Inactive">Inactive</option>
          </select>
        </label>
        <button type="submit" class="button button-primary">
          Apply
        </button>
      </form>
      <Loaded load={products}>
        {(list) =>
          list.items.length === 0 ? (
            <p>No products match.</p>
          ) : (
            <>
              <section class="table-scroll" aria-label="Products">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">SKU</th>
                      <th scope="col">Name</th>
                      <th scope="col">Category</th>
                      <th scope="col">Status</th>
                      <th scope="col" class="number">
                        Price
                      </th>
                      <th scope="col" class="number">
                        Reorder point
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.items.map((product) => (
                      <tr key={product.id}>
                        <td>
                          <a href={`/app/products/${product.id}`}>{product.sku}</a>
                        </td>
                        <td>{product.name}</td>
                        <td>{product.category ?? "—"}</td>
                        <td>{product.status}</td>
                        <td class="number">{formatMoney(product.price)}</td>
                        <td class="number">{product.reorderPoint}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
              <Pager
                page={list.page}
                totalPages={list.totalPages}
                totalCount={list.totalCount}
                onPage={(next) => show({ page: next })}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}
