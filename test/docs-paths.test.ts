import { describe, expect, it } from "vitest";

// The README and the pages under docs/ name files and folders of this repository (`src/stock/receive.ts`, a link to
// docs/guide/stock.md): each must exist, so a rename or a move cannot leave the documentation pointing at nothing.
const pages = import.meta.glob<string>(["../README.md", "../docs/**/*.md"], {
  query: "?raw",
  import: "default",
  eager: true,
});

// Every file of the repository that documentation may name (keys only: nothing is loaded), web/dist included (the
// build the config runs first); vite leaves out this file itself.
const files = Object.keys(
  import.meta.glob([
    "../*",
    "../{src,web,docs,test,e2e,bench,scripts,clients,migrations}/**",
    "../.ci/*",
    "!**/node_modules/**",
    "!**/bin/**",
    "!**/obj/**",
    "!**/vendor/**",
    "!**/__pycache__/**",
    "!**/.venv/**",
  ]),
)
  // Vite names this folder's own files `./x`, the others `../folder/x`.
  .map((key) => key.replace(/^\.\//, "test/").replace(/^\.\.\//, ""));

const ROOTS = /^(src|web|docs|test|e2e|bench|scripts|clients|migrations|\.ci)\//;

/** The repository paths a page names: in code spans, and as relative link targets (resolved from the page). */
function namedPaths(page: string, text: string): string[] {
  const here = page.replace(/^\.\.\//, "").replace(/[^/]*$/, "");
  const spans = [...text.matchAll(/`([^`\s]+)`/g)].map(([, span]) => span as string);
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target as string)
    .filter((target) => !/^[a-z]+:|^#|^\//.test(target))
    .map((target) => new URL(target, `file:///${here}`).pathname.slice(1));
  return [...spans, ...links]
    .map((path) =>
      path
        .replace(/[#?].*$/, "")
        .replace(/:\d+(-\d+)?$/, "")
        .replace(/[.,;:]+$/, ""),
    )
    .filter((path) => ROOTS.test(path) && !/[*<>{}$]/.test(path));
}

const exists = (path: string) => {
  const bare = path.replace(/\/$/, "");
  return files.some((file) => file === bare || file.startsWith(`${bare}/`));
};

describe("paths named in the documentation", () => {
  it("finds the repository's files (the check below can fail)", () => {
    expect(files).toContain("src/app.ts");
    expect(files).toContain(".ci/run");
    expect(files).toContain("test/layout.test.ts");
    expect(exists("src/stock")).toBe(true);
    expect(exists("src/no-such-folder")).toBe(false);
    expect(
      namedPaths("../docs/guide/x.md", "see `src/app.ts:12`, [stock](stock.md) and [up](../../README.md)"),
    ).toEqual(["src/app.ts", "docs/guide/stock.md"]);
  });

  it("names only files and folders that exist", () => {
    const missing = Object.entries(pages).flatMap(([page, text]) =>
      namedPaths(page, text)
        .filter((path) => !exists(path))
        .map((path) => `${page.replace(/^\.\.\//, "")}: ${path}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });
});
