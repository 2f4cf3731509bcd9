import { api, unwrap } from "../api/client";
import { useById } from "./by-id";

/** The orders a page names by id (a shipment's, a page of returns'), by id. */
export const useOrdersById = (ids: string[]) =>
  useById(ids, (id) => unwrap(api.GET("/api/v1/orders/{id}", { params: { path: { id } } })));
