import { api, type Schemas, unwrap } from "../api/client";
import { type Load, useLoad } from "./use-load";

export type Warehouse = Schemas["Warehouse"];
export type Location = Schemas["Location"];
export type Merchant = Schemas["Merchant"];

const PAGE = 100;

/** Every page of a list, for the few small lists (warehouses, locations) that pickers offer whole. */
async function allPages<T>(page: (n: number) => Promise<{ items: T[]; totalPages: number }>): Promise<T[]> {
  const first = await page(1);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, i) => page(i + 2)),
  );
  return [first, ...rest].flatMap((p) => p.items);
}

export function useWarehouses(): Load<Warehouse[]> {
  return useLoad(
    () =>
      allPages((page) =>
        unwrap(api.GET("/api/v1/warehouses", { params: { query: { page, pageSize: PAGE } } })),
      ),
    [],
  );
}

/** The locations of one warehouse, or of all, sorted by code (the bins' walking order). */
export const locationsOf = (warehouseId = ""): Promise<Location[]> =>
  allPages((page) =>
    unwrap(
      api.GET("/api/v1/locations", {
        params: { query: { page, pageSize: PAGE, sort: "code", ...(warehouseId && { warehouseId }) } },
      }),
    ),
  );

/** `locationsOf` for a component. */
export function useLocations(warehouseId = ""): Load<Location[]> {
  return useLoad(() => locationsOf(warehouseId), [warehouseId]);
}

/** The 3PL's merchants, sorted by code (a tenant serves tens of them, not thousands). */
export function useMerchants(): Load<Merchant[]> {
  return useLoad(
    () =>
      allPages((page) =>
        unwrap(api.GET("/api/v1/merchants", { params: { query: { page, pageSize: PAGE, sort: "code" } } })),
      ),
    [],
  );
}

/** A code for an id, or the id's start while the list loads. */
export const codeOf = (items: { id: string; code: string }[] | undefined, id: string | null) =>
  id ? (items?.find((item) => item.id === id)?.code ?? id.slice(0, 8)) : "—";

/** Warehouses as select choices: by code, with the name where there is room for it. */
export const warehouseChoices = (items: Warehouse[] | undefined, named = true) =>
  items?.map((w) => ({ value: w.id, label: named ? `${w.code} ${w.name}` : w.code }));

/**
 * Locations as select choices, each under its warehouse's code (`MAIN · DOCK-IN`): two warehouses often have a
 * location of the same code, so a code alone cannot tell them apart.
 */
export const locationChoices = (items: Location[] | undefined, warehouses: Warehouse[] | undefined) =>
  items?.map((l) => ({ value: l.id, label: `${codeOf(warehouses, l.warehouseId)} · ${l.code}` }));
