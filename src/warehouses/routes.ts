import { created, envelopeOf, ok } from "../http/envelope";
import { pagedOf } from "../http/pagination";
import { IdParam } from "../http/params";
import { createRouter } from "../http/router";
import { defineRoute, errorResponse, jsonContent as json } from "../pipeline/route";
import { createWarehouse } from "./create-warehouse";
import { deleteWarehouse } from "./delete-warehouse";
import { listWarehouses } from "./list-warehouses";
import { getWarehouse } from "./read-warehouse";
import { ListWarehousesQuery, WarehouseBody, WarehouseRecord } from "./schemas";
import { updateWarehouse } from "./update-warehouse";

const read = { scope: "read:inventory" } as const;
const write = { scope: "write:inventory" } as const;
const tags = ["Warehouses"];
const one = (description: string) => ({ description, ...json(envelopeOf(WarehouseRecord)) });
const unknown = { 404: errorResponse("Unknown warehouse") };

const listWarehousesRoute = defineRoute(read, {
  method: "get",
  path: "/warehouses",
  operationId: "listWarehouses",
  tags,
  summary: "List warehouses",
  request: { query: ListWarehousesQuery },
  responses: { 200: { description: "A page of warehouses", ...json(envelopeOf(pagedOf(WarehouseRecord))) } },
});
const createWarehouseRoute = defineRoute(write, {
  method: "post",
  path: "/warehouses",
  operationId: "createWarehouse",
  tags,
  summary: "Create a warehouse (code unique per tenant)",
  request: { body: { required: true, ...json(WarehouseBody) } },
  responses: { 201: one("The new warehouse"), 409: errorResponse("Code already used") },
});
const getWarehouseRoute = defineRoute(read, {
  method: "get",
  path: "/warehouses/{id}",
  operationId: "getWarehouse",
  tags,
  summary: "Get a warehouse",
  request: { params: IdParam },
  responses: { 200: one("The warehouse"), ...unknown },
});
const updateWarehouseRoute = defineRoute(write, {
  method: "put",
  path: "/warehouses/{id}",
  operationId: "updateWarehouse",
  tags,
  summary: "Replace a warehouse's code, name, address and active flag",
  request: { params: IdParam, body: { required: true, ...json(WarehouseBody) } },
  responses: { 200: one("The warehouse"), ...unknown, 409: errorResponse("Code already used") },
});
const deleteWarehouseRoute = defineRoute(write, {
  method: "delete",
  path: "/warehouses/{id}",
  operationId: "deleteWarehouse",
  tags,
  summary: "Delete a warehouse and its empty locations",
  request: { params: IdParam },
  responses: { 200: one("The deleted warehouse"), ...unknown, 409: errorResponse("It holds stock") },
});

export const warehouseRoutes = createRouter()
  .openapi(listWarehousesRoute, async (c) =>
    ok(c, await listWarehouses(c.var.tenantDb, c.req.valid("query"))),
  )
  .openapi(createWarehouseRoute, async (c) => {
    const warehouse = await createWarehouse(c.var.tenantDb, c.req.valid("json"));
    return created(c, warehouse, `/api/v1/warehouses/${warehouse.id}`);
  })
  .openapi(getWarehouseRoute, async (c) => ok(c, await getWarehouse(c.var.tenantDb, c.req.valid("param").id)))
  .openapi(updateWarehouseRoute, async (c) =>
    ok(c, await updateWarehouse(c.var.tenantDb, c.req.valid("param").id, c.req.valid("json"))),
  )
  .openapi(deleteWarehouseRoute, async (c) =>
    ok(c, await deleteWarehouse(c.var.tenantDb, c.req.valid("param").id)),
  );
