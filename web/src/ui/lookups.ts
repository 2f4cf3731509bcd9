import { api, onWrite, type Schemas, unwrap } from "../api/client";
import { currentUserId, sessionTenantId } from "../session/session";
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

// The lookups are read once per person, tenant and page load, and shared by every page that offers them: they
// change seldom, and most pages offer one or two of them next to their own read. A write to any of them from this
// page (or another tab of it) forgets them all, so the next page that asks reads them again; a colleague's change
// shows after a reload (docs/decisions/web-app.md, "Page loads").
const LOOKUP_WRITES = /^\/api\/v1\/(warehouses|locations|merchants)(\/|$)/;
const lookups = new Map<string, Promise<unknown>>();
const otherTabs = typeof BroadcastChannel === "function" ? new BroadcastChannel("wms-lookups") : null;
otherTabs?.addEventListener("message", () => lookups.clear());
onWrite((path) => {
  if (!LOOKUP_WRITES.test(path)) return;
  lookups.clear();
  otherTabs?.postMessage("changed");
});

function lookup<T>(list: string, read: () => Promise<T>): Promise<T> {
  const key = `${currentUserId()} ${sessionTenantId()} ${list}`;
  let known = lookups.get(key) as Promise<T> | undefined;
  if (!known) {
    known = read();
    lookups.set(key, known);
    known.catch(() => lookups.get(key) === known && lookups.delete(key)); // a failed read is tried again
  }
  return known;
}

const warehousesOf = () =>
  lookup("warehouses", () =>
    allPages((page) =>
      unwrap(api.GET("/api/v1/warehouses", { params: { query: { page, pageSize: PAGE } } })),
    ),
  );

export function useWarehouses(): Load<Warehouse[]> {
  return useLoad(warehousesOf, []);
}

/** The locations of one warehouse, or of all, sorted by code (the bins' walking order). */
export const locationsOf = async (warehouseId = ""): Promise<Location[]> => {
  const all = await lookup("locations", () =>
    allPages((page) =>
      unwrap(api.GET("/api/v1/locations", { params: { query: { page, pageSize: PAGE, sort: "code" } } })),
    ),
  );
  return warehouseId ? all.filter((l) => l.warehouseId === warehouseId) : all;
};

/** `locationsOf` for a component. */
export function useLocations(warehouseId = ""): Load<Location[]> {
  return useLoad(() => locationsOf(warehouseId), [warehouseId]);
}

/** The 3PL's merchants, sorted by code (a tenant serves tens of them, not thousands). */
export function useMerchants(): Load<Merchant[]> {
  return useLoad(
    () =>
      lookup("merchants", () =>
        allPages((page) =>
          unwrap(api.GET("/api/v1/merchants", { params: { query: { page, pageSize: PAGE, sort: "code" } } })),
        ),
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
