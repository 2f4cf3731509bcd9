import { describe, expect, it } from "vitest";
import readme from "../README.md?raw";

// README's "URL prefix -> folder" table is the map of the code: every route lives in the folder its URL names.
const routeFiles = import.meta.glob<string>("../src/**/routes.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});

const table = [...readme.matchAll(/^\| (`\/api\/v1[^|]*?|`\/app`) *\| `src\/([\w-]+)` *\|$/gm)].flatMap(
  ([, prefixes, folder]) =>
    [...(prefixes as string).matchAll(/`\/api\/v1([^`]*)`/g)].map(([, prefix]) => ({
      prefix: prefix as string,
      folder,
    })),
);

/** The folder of the longest prefix of `path` in the table. */
const folderOf = (path: string) =>
  table
    .filter(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0]?.folder;

describe("the README's URL prefix -> folder table", () => {
  it("places every documented route in the folder its URL names", () => {
    const routes = Object.entries(routeFiles).flatMap(([file, text]) =>
      [...text.matchAll(/^\s+path: "([^"]+)"/gm)].map(([, path]) => ({ path, folder: file.split("/")[2] })),
    );
    expect(table.length).toBeGreaterThan(10);
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) expect({ ...route, folder: folderOf(route.path as string) }).toEqual(route);
  });
});

// Logic files are named by the operation they carry out (README, "Where the code is"): a grab-bag name hides
// which operations a file holds, and where a new one should go.
const sourceFiles = Object.keys(import.meta.glob("../src/**/*.ts"));

describe("source file names", () => {
  it("names no file after a grab bag (service, utils, helpers)", () => {
    expect(sourceFiles.length).toBeGreaterThan(100);
    const grabBags = sourceFiles.filter((file) =>
      /\/(service|services|utils?|helpers?|misc|common)\.ts$/.test(file),
    );
    expect(grabBags).toEqual([]);
  });
});

// A URL module calls the shared layers, never another URL module's insides: what two URL modules share lives in a
// layer of its own. Every folder of src is one or the other, so a new folder has to be placed.
const sharedLayers = [
  "auth",
  "config",
  "crypto",
  "db",
  "dev",
  "files",
  "gs1",
  "http",
  "identity",
  "idempotency",
  "mail",
  "order-core",
  "outbound",
  "outbox",
  "pipeline",
  "rate-limit",
  "record-schemas",
  "shipment-core",
  "stock",
];

// Imports still waiting for their shared home (the event payload catalogue reads record schemas of the modules
// it describes; jobs run other modules' imports and exports). Listed so the list can only shrink.
const notYetMoved = ["jobs -> inventory", "jobs -> products", "jobs -> reports"];

const sources = import.meta.glob<string>("../src/**/*.ts", { query: "?raw", import: "default", eager: true });

/** "from -> to" for every import of a URL module's file that reaches into another URL module. */
function crossings(files: Record<string, string>, urlFolders: ReadonlySet<string>) {
  const found = new Set<string>();
  for (const [file, text] of Object.entries(files)) {
    const parts = file.split("/").slice(2, -1); // ["orders"] for ../src/orders/x.ts
    const from = parts[0];
    if (!from || !urlFolders.has(from)) continue;
    for (const [, spec] of text.matchAll(/from "(\.[^"]+)"/g)) {
      const target = [...parts];
      for (const step of (spec as string).split("/").slice(0, -1)) {
        if (step === "..") target.pop();
        else if (step !== ".") target.push(step);
      }
      const to = target[0];
      if (to && to !== from && urlFolders.has(to)) found.add(`${from} -> ${to}`);
    }
  }
  return [...found].sort();
}

describe("URL modules and shared layers", () => {
  const urlFolders = new Set(
    [...readme.matchAll(/^\| `.*?\| `src\/([\w-]+)` *\|$/gm)].map(([, folder]) => folder as string),
  );
  const folders = new Set(Object.keys(sources).flatMap((file) => file.split("/").slice(2, -1).slice(0, 1)));

  it("places every folder of src as a URL module (the README's table) or a shared layer", () => {
    const unplaced = [...folders].filter(
      (folder) => !urlFolders.has(folder) && !sharedLayers.includes(folder),
    );
    expect(unplaced).toEqual([]);
    expect(sharedLayers.filter((layer) => urlFolders.has(layer) || !folders.has(layer))).toEqual([]);
  });

  it("lists every shared layer in the README", () => {
    for (const layer of sharedLayers) expect(readme).toContain(`\`src/${layer}\``);
  });

  it("lets no URL module import another, beyond the imports still listed as not yet moved", () => {
    const found = crossings(sources, urlFolders);
    expect(found.filter((pair) => !notYetMoved.includes(pair))).toEqual([]);
    // A pair that is gone comes off the list.
    expect(notYetMoved.filter((pair) => !found.includes(pair))).toEqual([]);
  });

  it("catches a planted import of another URL module's insides", () => {
    const planted = {
      "../src/orders/create-order.ts":
        'import { x } from "../stock/reserve";\nimport { y } from "../products/writes";',
      "../src/orders/deep/file.ts": 'import { z } from "../../returns/schemas";',
      "../src/stock/reserve.ts": 'import { w } from "../orders/schemas";',
    };
    expect(crossings(planted, new Set(["orders", "products", "returns"]))).toEqual([
      "orders -> products",
      "orders -> returns",
    ]);
  });
});
