// Every file rendered from the operation table, by path: what `npm run clients:generate` writes and what
// the drift checks compare with the committed files.
import type { OperationTable } from "./operation-table.ts";
import { renderDotnet } from "./render-dotnet.ts";
import { PHP_RESOURCES_DIR, renderPhp } from "./render-php.ts";
import { renderPython } from "./render-python.ts";
import { renderTypeScript } from "./render-typescript.ts";

export const TABLE_PATH = "clients/operations.json";

/** Directories the generator owns whole: a file there that it no longer renders is stale. */
export const GENERATED_DIRECTORIES: string[] = [PHP_RESOURCES_DIR];

export function renderTable(table: OperationTable): string {
  return `${JSON.stringify(table, null, 2)}\n`;
}

export function renderAll(table: OperationTable): Map<string, string> {
  return new Map([
    [TABLE_PATH, renderTable(table)],
    ["clients/typescript/src/generated/operations.ts", renderTypeScript(table)],
    ["clients/python/warehouse_api/_operations.py", renderPython(table)],
    ...renderPhp(table),
    ["clients/dotnet/src/Generated/Resources.g.cs", renderDotnet(table)],
  ]);
}
