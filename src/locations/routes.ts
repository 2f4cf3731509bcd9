import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { StockLevelRecord } from "../stock/schemas";
import { createLocation } from "./create-location";
import { deleteLocation } from "./delete-location";
import { listLocationStock } from "./list-location-stock";
import { listLocations } from "./list-locations";
import { getLocation } from "./read-location";
import {
  CreateLocationBody,
  ListLocationsQuery,
  LocationRecord,
  LocationStockQuery,
  UpdateLocationBody,
} from "./schemas";
import { updateLocation } from "./update-location";

const read = { scope: "read:inventory" } as const;
const write = { scope: "write:inventory" } as const;
const tags = ["Locations"];
const one = (description: string) => ({ description, ...json(envelopeOf(LocationRecord)) });
const unknown = { 404: errorResponse("Unknown location") };

const listLocationsRoute = defineRoute(read, {
  method: "get",
  path: "/locations",
  operationId: "listLocations",
  tags,
  summary: "List locations (filters: warehouseId, type, search on code and name)",
  request: { query: ListLocationsQuery },
  responses: { 200: { description: "A page of locations", ...json(envelopeOf(pagedOf(LocationRecord))) } },
});
const createLocationRoute = defineRoute(write, {
  method: "post",
  path: "/locations",
  operationId: "createLocation",
  tags,
  summary: "Create a location in a warehouse (code unique within the warehouse)",
  request: { body: { required: true, ...json(CreateLocationBody) } },
  responses: {
    201: one("The new location"),
    404: errorResponse("Unknown warehouse"),
    409: errorResponse("Code already used in the warehouse, or a non-sellable packing location"),
  },
});
const getLocationRoute = defineRoute(read, {
  method: "get",
  path: "/locations/{id}",
  operationId: "getLocation",
  tags,
  summary: "Get a location",
  request: { params: IdParam },
  responses: { 200: one("The location"), ...unknown },
});
const updateLocationRoute = defineRoute(write, {
  method: "put",
  path: "/locations/{id}",
  operationId: "updateLocation",
  tags,
  summary: "Replace a location's code, name, type, parent and active flag (its warehouse cannot change)",
  request: { params: IdParam, body: { required: true, ...json(UpdateLocationBody) } },
  responses: {
    200: one("The location"),
    ...unknown,
    409: errorResponse(
      "Code already used in the warehouse, a non-sellable packing location, or non-sellable while stock there is reserved",
    ),
  },
});
const deleteLocationRoute = defineRoute(write, {
  method: "delete",
  path: "/locations/{id}",
  operationId: "deleteLocation",
  tags,
  summary: "Delete an empty location",
  request: { params: IdParam },
  responses: {
    200: one("The deleted location"),
    ...unknown,
    409: errorResponse("It holds stock or has children"),
  },
});

const listLocationStockRoute = defineRoute(read, {
  method: "get",
  path: "/locations/{id}/inventory",
  operationId: "listLocationStock",
  tags: [...tags, "Inventory"],
  summary: "Stock levels at one location",
  request: { params: IdParam, query: LocationStockQuery },
  responses: {
    200: { description: "A page of stock levels", ...json(envelopeOf(pagedOf(StockLevelRecord))) },
    404: errorResponse("Unknown location"),
  },
});

export const locationRoutes = createRouter()
  .openapi(listLocationsRoute, async (c) => ok(c, await listLocations(c.var.tenantDb, c.req.valid("query"))))
  .openapi(createLocationRoute, async (c) => {
    const location = await createLocation(c.var.tenantDb, c.req.valid("json"));
    return created(c, location, `/api/v1/locations/${location.id}`);
  })
  .openapi(getLocationRoute, async (c) => ok(c, await getLocation(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(updateLocationRoute, async (c) =>
    ok(c, await updateLocation(c.var.tenantDb, c.req.valid("param").id, c.req.valid("json"))),
  )
  .openapi(deleteLocationRoute, async (c) =>
    ok(c, await deleteLocation(c.var.tenantDb, c.req.valid("param").id)),
  )
  .openapi(listLocationStockRoute, async (c) =>
    ok(c, await listLocationStock(c.var.tenantDb, c.req.valid("param").id, c.req.valid("query"))),
  );
