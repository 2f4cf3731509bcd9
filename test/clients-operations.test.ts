import { describe, expect, it } from "vitest";
import naming from "../clients/naming.json";
import committed from "../clients/operations.json";
import { buildOperationTable } from "../scripts/clients/operation-table.ts";
import { fetchApi } from "./support/http";

// The client libraries (clients/) are generated from the operation table; this keeps the table in step with
// the API: an operation added, removed or changed without `npm run clients:generate` fails here.
describe("client operation table", () => {
  it("matches the OpenAPI document the Worker serves", async () => {
    const response = await fetchApi(new Request("http://localhost/api/v1/openapi.json"));
    const table = buildOperationTable(await response.json(), naming);
    const ids = (operations: { operationId: string }[]) =>
      operations.map((operation) => operation.operationId);
    const advice =
      "run `npm run clients:generate` (a new operation first needs its name in clients/naming.json)";
    expect(ids(table.operations), advice).toEqual(ids(committed.operations));
    expect(table, advice).toEqual(committed);
  });
});
