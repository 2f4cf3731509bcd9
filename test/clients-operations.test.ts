import { describe, expect, it } from "vitest";
import naming from "../clients/naming.json";
import committed from "../clients/operations.json";
import { buildOperationTable } from "../scripts/clients/operation-table.ts";
import { renderCodeSamples } from "../scripts/clients/render-code-samples.ts";
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

  it("shows every operation called through the four clients on the docs page (x-codeSamples)", async () => {
    const document = (await (await fetchApi(new Request("http://localhost/api/v1/openapi.json"))).json()) as {
      paths: Record<string, Record<string, { operationId: string; "x-codeSamples"?: { label: string }[] }>>;
    };
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    const labels = operations.map(
      (op) => `${op.operationId}: ${op["x-codeSamples"]?.map((s) => s.label).join(", ")}`,
    );
    // An operation the clients omit (clients/naming.json, with why) has no sample: its hand-written helpers have theirs.
    expect(labels).toEqual(
      operations.map((op) =>
        op.operationId in naming.omit
          ? `${op.operationId}: undefined`
          : `${op.operationId}: TypeScript, Python, PHP, C#`,
      ),
    );
    // The served samples are the ones rendered from the table the clients are rendered from.
    const samples = JSON.parse(renderCodeSamples(buildOperationTable(document, naming)));
    for (const op of operations) expect(op["x-codeSamples"], op.operationId).toEqual(samples[op.operationId]);
    const create = operations.find((op) => op.operationId === "createProduct");
    expect(JSON.stringify(create?.["x-codeSamples"])).toContain("client.products.create({ sku: ");
  });
});
