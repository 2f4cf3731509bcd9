// Every file rendered from the operation table, by path: what `npm run clients:generate` writes and what
// the drift checks compare with the committed files.
import type { OperationTable } from "./operation-table.ts";
import { CODE_SAMPLES_PATH, renderCodeSamples } from "./render-code-samples.ts";
import { renderDotnet } from "./render-dotnet.ts";
import { renderDotnetModels } from "./render-dotnet-models.ts";
import { PHP_RESOURCES_DIR, renderPhp } from "./render-php.ts";
import { PHP_GENERATED_DIR, renderPhpModels } from "./render-php-models.ts";
import { renderPython } from "./render-python.ts";
import { renderPythonModels } from "./render-python-models.ts";
import { renderTypeScript } from "./render-typescript.ts";
import { renderVersions } from "./render-versions.ts";

export const TABLE_PATH = "clients/operations.json";

/** Directories the generator owns whole: a file there that it no longer renders is stale. */
export const GENERATED_DIRECTORIES: string[] = [PHP_RESOURCES_DIR, PHP_GENERATED_DIR];

export function renderTable(table: OperationTable): string {
  return `${JSON.stringify(table, null, 2)}\n`;
}

export function renderAll(table: OperationTable): Map<string, string> {
  return new Map([
    [TABLE_PATH, renderTable(table)],
    ["clients/typescript/src/generated/operations.ts", renderTypeScript(table)],
    ["clients/python/warehouse_api/_operations.py", renderPython(table)],
    ["clients/python/warehouse_api/models.py", renderPythonModels(table)],
    ...renderPhp(table),
    ...renderPhpModels(table),
    ["clients/dotnet/src/Generated/Resources.g.cs", renderDotnet(table)],
    ["clients/dotnet/src/Generated/Models.g.cs", renderDotnetModels(table)],
    ...renderVersions(),
    [CODE_SAMPLES_PATH, renderCodeSamples(table)],
  ]);
}
