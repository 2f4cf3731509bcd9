import { describe, expect, it } from "vitest";
import manifest from "../package.json?raw";

// Every dependency is pinned to one version, so a fresh `npm install` (the README's first command) builds what CI
// tested on any date; the lock alone does not hold when package.json is re-resolved (`dequal` was `^2.0.3`, #45).

describe("package.json", () => {
  it("pins every dependency to an exact version", () => {
    const { dependencies = {}, devDependencies = {} } = JSON.parse(manifest) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    const ranges = Object.entries({ ...dependencies, ...devDependencies })
      .filter(([, version]) => !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version))
      .map(([name, version]) => `${name} ${version}`);
    expect(Object.keys(devDependencies).length).toBeGreaterThan(10);
    expect(ranges).toEqual([]);
  });
});
