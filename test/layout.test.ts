import { describe, expect, it } from "vitest";
import readme from "../docs/guide/code.md?raw";

// guide's "URL prefix -> folder" table (docs/guide/code.md) is the map of the code: every route lives in the folder its URL names.
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

describe("docs/guide/code.md's URL prefix -> folder table", () => {
  it("places every documented route in the folder its URL names", () => {
    const routes = Object.entries(routeFiles).flatMap(([file, text]) =>
      [...text.matchAll(/^\s+path: "([^"]+)"/gm)].map(([, path]) => ({ path, folder: file.split("/")[2] })),
    );
    expect(table.length).toBeGreaterThan(10);
    expect(routes.length).toBeGreaterThan(30);
    for (const route of routes) expect({ ...route, folder: folderOf(route.path as string) }).toEqual(route);
  });
});

// Logic files are named by the operation they carry out (docs/guide/code.md): a grab-bag name hides
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
  "event-schemas",
  "files",
  "gs1",
  "http",
  "identity",
  "idempotency",
  "mail",
  "observability",
  "order-core",
  "outbound",
  "outbox",
  "pipeline",
  "product-core",
  "rate-limit",
  "record-schemas",
  "report-rows",
  "shipment-core",
  "stock",
  "webhook-delivery",
];

const sources = import.meta.glob<string>("../src/**/*.ts", { query: "?raw", import: "default", eager: true });

/**
 * "from -> to" for every import of a file in one of `fromFolders` (the URL modules unless said) that reaches into a
 * URL module other than its own.
 */
function crossings(
  files: Record<string, string>,
  urlFolders: ReadonlySet<string>,
  fromFolders: ReadonlySet<string> = urlFolders,
) {
  const found = new Set<string>();
  for (const [file, text] of Object.entries(files)) {
    const parts = file.split("/").slice(2, -1); // ["orders"] for ../src/orders/x.ts
    const from = parts[0];
    if (!from || !fromFolders.has(from)) continue;
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

/** The folders of every folder-level import cycle among the "from -> to" pairs (each sorted), found by walking. */
function folderCycles(pairs: readonly string[]): string[][] {
  const next = new Map<string, string[]>();
  for (const pair of pairs) {
    const [from, to] = pair.split(" -> ") as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const reach = (from: string) => {
    const seen = new Set<string>();
    const todo = [...(next.get(from) ?? [])];
    for (let folder = todo.pop(); folder !== undefined; folder = todo.pop()) {
      if (seen.has(folder)) continue;
      seen.add(folder);
      todo.push(...(next.get(folder) ?? []));
    }
    return seen;
  };
  const reached = new Map([...next.keys()].map((folder) => [folder, reach(folder)]));
  const cycles = new Map<string, string[]>();
  for (const [folder, seen] of reached) {
    if (!seen.has(folder)) continue;
    const cycle = [...seen].filter((other) => reached.get(other)?.has(folder)).sort();
    cycles.set(cycle.join(), cycle);
  }
  return [...cycles.values()];
}

describe("URL modules and shared layers", () => {
  const urlFolders = new Set(
    [...readme.matchAll(/^\| `.*?\| `src\/([\w-]+)` *\|$/gm)].map(([, folder]) => folder as string),
  );
  const folders = new Set(Object.keys(sources).flatMap((file) => file.split("/").slice(2, -1).slice(0, 1)));

  it("places every folder of src as a URL module (docs/guide/code.md's table) or a shared layer", () => {
    const unplaced = [...folders].filter(
      (folder) => !urlFolders.has(folder) && !sharedLayers.includes(folder),
    );
    expect(unplaced).toEqual([]);
    expect(sharedLayers.filter((layer) => urlFolders.has(layer) || !folders.has(layer))).toEqual([]);
  });

  it("lists every shared layer in docs/guide/code.md", () => {
    for (const layer of sharedLayers) expect(readme).toContain(`\`src/${layer}\``);
  });

  it("lets no URL module import another", () => {
    expect(crossings(sources, urlFolders)).toEqual([]);
  });

  it("catches a planted import of another URL module's insides", () => {
    const planted = {
      "../src/orders/create-order.ts":
        'import { x } from "../stock/reserve";\nimport { y } from "../products/update-product";',
      "../src/orders/deep/file.ts": 'import { z } from "../../returns/schemas";',
      "../src/stock/reserve.ts": 'import { w } from "../orders/schemas";',
    };
    expect(crossings(planted, new Set(["orders", "products", "returns"]))).toEqual([
      "orders -> products",
      "orders -> returns",
    ]);
  });

  // A shared layer stands below every URL module: one importing a URL module would tie every module above it to
  // that module's insides (and to its folder-level import cycle).
  it("lets no shared layer import a URL module", () => {
    expect(crossings(sources, urlFolders, new Set(sharedLayers))).toEqual([]);
  });

  // A folder-level cycle would make two layers one in all but name: neither could be read or changed alone.
  it("has no folder-level import cycle", () => {
    expect(folderCycles(crossings(sources, folders))).toEqual([]);
  });

  it("catches a planted folder-level import cycle", () => {
    const planted = {
      "../src/stock/write.ts": 'import { a } from "../outbox/outbox";',
      "../src/outbox/payloads.ts": 'import { b } from "../record-schemas/hold";',
      "../src/record-schemas/hold.ts":
        'import { c } from "../stock/schemas";\nimport { d } from "../db/client";',
    };
    const all = new Set(["db", "outbox", "record-schemas", "stock"]);
    expect(folderCycles(crossings(planted, all))).toEqual([["outbox", "record-schemas", "stock"]]);
  });

  it("catches a planted import of a URL module by a shared layer", () => {
    const planted = {
      "../src/pipeline/route.ts":
        'import { a } from "../openapi/headers";\nimport { b } from "../http/errors";',
      "../src/db/moves/steps.ts": 'import type { c } from "../../platform/moves/mover";',
      "../src/orders/create-order.ts": 'import { d } from "../products/writes";',
    };
    const urlFolders = new Set(["openapi", "orders", "platform", "products"]);
    expect(crossings(planted, urlFolders, new Set(["db", "http", "pipeline"]))).toEqual([
      "db -> platform",
      "pipeline -> openapi",
    ]);
  });
});

// The stock kernel answers in the warehouse's words: outside src/stock, only its front door (src/stock/index.ts:
// the verbs that give a level's change with its ledger row and its serials' move, and what callers read) and its
// API shapes (src/stock/schemas.ts) are imported, so no caller writes a level or a ledger row by hand.
const stockDoors = new Set(["stock", "stock/index", "stock/schemas"]);

/** "file -> stock/x" for every import of a kernel file other than its front door from outside src/stock. */
function kernelInsides(files: Record<string, string>) {
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const parts = file.split("/").slice(2, -1); // ["orders"] for ../src/orders/x.ts
    if (parts[0] === "stock") continue;
    for (const [, spec] of text.matchAll(/from "(\.[^"]+)"/g)) {
      const target = [...parts];
      for (const step of (spec as string).split("/")) {
        if (step === "..") target.pop();
        else if (step !== ".") target.push(step);
      }
      const path = target.join("/");
      if (target[0] === "stock" && !stockDoors.has(path)) found.push(`${file.slice(7)} -> ${path}`);
    }
  }
  return found.sort();
}

describe("the stock kernel", () => {
  it("is imported from outside src/stock only through its front door and its API shapes", () => {
    expect(kernelInsides(sources)).toEqual([]);
  });

  it("catches a planted import of a kernel file behind the front door", () => {
    const planted = {
      "../src/returns/receive-return.ts":
        'import { changeLevel } from "../stock/statements";\nimport { receive } from "../stock";',
      "../src/orders/deep/file.ts": 'import { LotNumber } from "../../stock/schemas";',
      "../src/stock/verbs.ts": 'import { addStock } from "./statements";',
      "../src/counts/approve.ts":
        'import { issue } from "../stock/index";\nimport { x } from "../stock/tracked-stock";',
    };
    expect(kernelInsides(planted)).toEqual([
      "counts/approve.ts -> stock/tracked-stock",
      "returns/receive-return.ts -> stock/statements",
    ]);
  });
});

// Every list pages one way (src/db/pages.ts): its select, its order and its count go to `readPage` (or a helper on
// it), which adds the window and reads the page with its total in one batch; the newest-first order is `newestFirst`.
/** "file: what it does by hand" for each list file that windows its page itself or writes the newest-first order. */
function handPagedLists(files: Record<string, string>) {
  const found: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const name = file.slice(7);
    if (name === "db/pages.ts") continue;
    if (/desc\((\w+)\.createdAt\),\s*desc\(\1\.id\)/.test(text)) found.push(`${name}: newest first`);
    if (/\/list-[\w-]+\.ts$/.test(file) && /\b(paged|runBatch)\b/.test(text))
      found.push(`${name}: its own page`);
  }
  return found.sort();
}

describe("lists", () => {
  it("page through readPage and order newest first through newestFirst", () => {
    expect(handPagedLists(sources)).toEqual([]);
  });

  it("catches a planted list that pages itself, and a hand-written newest-first order", () => {
    const planted = {
      "../src/returns/list-returns.ts":
        'import { runBatch } from "../db/batch";\nconst read = await runBatch(tdb, { rows, count });',
      "../src/holds/read-holds.ts": ".orderBy(desc(h.createdAt), desc(h.id))",
      "../src/db/pages.ts": "return [desc(table.createdAt), desc(table.id)];",
      "../src/lots/list-lots.ts": "return readPage(tdb, query, { rows, order, count });",
    };
    expect(handPagedLists(planted)).toEqual([
      "holds/read-holds.ts: newest first",
      "returns/list-returns.ts: its own page",
    ]);
  });
});

// The root files are the Worker's entry (index.ts, and the app, queue and cron handlers it starts) and what every
// layer reads (env.ts: the bindings and a request's variables; money.ts). The folder rules above skip them, so they
// have rules of their own: only the entry imports a handler, and no root file sits in an import circle (env.ts
// importing a layer's type that imports env.ts back made every layer on the way one, though the imports were types).
const entryHandlers = ["app.ts", "queue.ts", "scheduled.ts"];

/** The file every relative import of `files` names (a known file, or the spec's folder index), by importing file. */
function fileImports(files: Record<string, string>) {
  const known = new Set(Object.keys(files));
  const imports = new Map<string, string[]>();
  for (const [file, text] of Object.entries(files)) {
    const targets: string[] = [];
    for (const [, spec] of text.matchAll(/from "(\.[^"]+)"/g)) {
      const target = file.split("/").slice(0, -1);
      for (const step of (spec as string).split("/")) {
        if (step === "..") target.pop();
        else if (step !== ".") target.push(step);
      }
      const path = target.join("/");
      const found = [`${path}.ts`, `${path}/index.ts`].find((candidate) => known.has(candidate));
      if (found) targets.push(found);
    }
    imports.set(file, targets);
  }
  return imports;
}

const isRootFile = (file: string) => file.split("/").length === 3; // ../src/env.ts

/** "root file: the files of its import circle" for every root file some import of which leads back to it. */
function rootFileCircles(files: Record<string, string>) {
  const imports = fileImports(files);
  const reach = (from: string) => {
    const seen = new Set<string>();
    const todo = [...(imports.get(from) ?? [])];
    for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
      if (seen.has(file)) continue;
      seen.add(file);
      todo.push(...(imports.get(file) ?? []));
    }
    return seen;
  };
  const found: string[] = [];
  for (const root of Object.keys(files).filter(isRootFile)) {
    const circle = [...reach(root)].filter((file) => file === root || reach(file).has(root));
    if (circle.length > 0)
      found.push(
        `${root.slice(7)}: ${circle
          .map((file) => file.slice(7))
          .sort()
          .join(", ")}`,
      );
  }
  return found.sort();
}

/** "importer -> handler" for every import of an entry handler by a file other than the Worker's entry. */
function handlerImports(files: Record<string, string>) {
  const found: string[] = [];
  for (const [file, targets] of fileImports(files)) {
    for (const target of targets) {
      if (file !== "../src/index.ts" && isRootFile(target) && entryHandlers.includes(target.slice(7)))
        found.push(`${file.slice(7)} -> ${target.slice(7)}`);
    }
  }
  return found.sort();
}

describe("the root files of src", () => {
  it("puts no root file in an import circle", () => {
    expect(Object.keys(sources).filter(isRootFile).length).toBeGreaterThan(4);
    expect(rootFileCircles(sources)).toEqual([]);
  });

  it("catches a planted circle through env.ts, even of type-only imports", () => {
    const planted = {
      "../src/env.ts":
        'import type { Tenant } from "./auth/tenant";\nimport type { Scope } from "./auth/scopes";',
      "../src/auth/tenant.ts": 'import type { AppEnv } from "../env";\nimport { a } from "../http/errors";',
      "../src/auth/scopes.ts": "export type Scope = string;",
      "../src/http/errors.ts": 'import { b } from "./codes";',
      "../src/http/codes/index.ts": 'import type { Tenant } from "../../auth/tenant";',
      "../src/money.ts": 'import { z } from "@hono/zod-openapi";',
    };
    expect(rootFileCircles(planted)).toEqual([
      "env.ts: auth/tenant.ts, env.ts, http/codes/index.ts, http/errors.ts",
    ]);
  });

  it("lets only the Worker's entry import the app, queue and cron handlers", () => {
    expect(handlerImports(sources)).toEqual([]);
    const planted = {
      "../src/index.ts": 'import { createApp } from "./app";',
      "../src/app.ts": 'import { runSweeps } from "./scheduled";',
      "../src/jobs/sweep.ts": 'import { consumeQueue } from "../queue";',
      "../src/scheduled.ts": "",
      "../src/queue.ts": "",
    };
    expect(handlerImports(planted)).toEqual(["app.ts -> scheduled.ts", "jobs/sweep.ts -> queue.ts"]);
  });
});

// One file per operation (docs/guide/code.md): each operation's handler in routes.ts calls a logic file of its
// own. A file the handlers of several operations call is a step they share (serving a report) only when each of them
// also calls a file of its own; otherwise that file holds several operations.
/** "folder/file: operation, operation" for every logic file holding several operations' logic. */
function sharedOperationFiles(routes: Record<string, string>) {
  const found: string[] = [];
  for (const [file, text] of Object.entries(routes)) {
    const folder = file.split("/").slice(2, -1).join("/");
    const imported = new Map<string, string>();
    for (const [, names, spec] of text.matchAll(/import (?:type )?\{([^}]+)\} from "\.\/([\w-]+)";/g)) {
      if (spec === "schemas" || spec === "records") continue;
      for (const name of (names as string).split(",")) {
        const local = name.trim().split(" as ").pop()?.trim();
        if (local && !local.startsWith("type ")) imported.set(local, spec as string);
      }
    }
    const operations = text
      .split(/\n {2}\.openapi\(/)
      .slice(1)
      .map((handler) => {
        const name = handler.match(/^\s*(\w+)/)?.[1] ?? "";
        const body = handler.slice(handler.indexOf(name) + name.length);
        const files = [...imported]
          .filter(([local]) => new RegExp(`\\b${local}\\b`).test(body))
          .map(([, f]) => f);
        return { name: name.replace(/Route$/, ""), files: [...new Set(files)] };
      });
    const callers = (logic: string) => operations.filter((operation) => operation.files.includes(logic));
    const withoutOwnFile = operations.filter((operation) =>
      operation.files.every((f) => callers(f).length > 1),
    );
    for (const logic of new Set(withoutOwnFile.flatMap((operation) => operation.files))) {
      const sharing = withoutOwnFile.filter((operation) => operation.files.includes(logic));
      if (sharing.length > 1) found.push(`${folder}/${logic}: ${sharing.map((o) => o.name).join(", ")}`);
    }
  }
  return found.sort();
}

describe("one file per operation", () => {
  it("finds no logic file holding several operations", () => {
    expect(sharedOperationFiles(routeFiles)).toEqual([]);
  });

  it("catches a planted file holding two operations, and lets operations share a step beside their own files", () => {
    const planted = {
      "../src/holds/routes.ts": [
        'import { getHold, listHolds } from "./read-holds";',
        'import { releaseHold } from "./release-hold";',
        'import { HoldRecord } from "./schemas";',
        "export const holdRoutes = createRouter()",
        "  .openapi(listHoldsRoute, async (c) => ok(c, await listHolds(c.var.tenantDb)))",
        "  .openapi(getHoldRoute, async (c) => ok(c, await getHold(c.var.tenantDb, HoldRecord)))",
        "  .openapi(releaseHoldRoute, async (c) => ok(c, await releaseHold(c.var.tenantDb)));",
      ].join("\n"),
      "../src/reports/routes.ts": [
        'import { servedLowStock } from "./low-stock";',
        'import { serveReport } from "./serve-report";',
        'import { servedReturns } from "./returns";',
        "export const reportRoutes = createRouter()",
        "  .openapi(getLowStockRoute, (c) => serveReport(c, servedLowStock))",
        "  .openapi(getReturnsRoute, (c) => serveReport(c, servedReturns));",
      ].join("\n"),
    };
    expect(sharedOperationFiles(planted)).toEqual(["holds/read-holds: listHolds, getHold"]);
  });
});
