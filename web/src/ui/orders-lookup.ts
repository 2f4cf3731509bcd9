import { api, unwrap } from "../api/client";
import { useById } from "./by-id";

/** The orders a page names by id (a shipment's, a page of returns', charges'), as summaries, in one request. */
export const useOrdersById = (ids: string[]) =>
  useById(ids, async (some) => {
    const page = await unwrap(
      api.GET("/api/v1/orders", { params: { query: { ids: some.join(","), pageSize: some.length } } }),
    );
    return page.items;
  });
