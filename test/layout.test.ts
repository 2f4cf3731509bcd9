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
