// The registry this project installs from serves only Linux builds, so `npm install` writes a lock
// without the other platforms' optional binaries and `npm ci` then refuses it as out of sync.
// This adds those entries back (marked with their os/cpu, so npm skips them here and fetches them
// on a machine that needs them). Run it after every `npm install` that changes the lock.
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORM = {
  darwin: ["darwin"],
  win32: ["win32"],
  windows: ["win32"],
  android: ["android"],
  linux: ["linux"],
  freebsd: ["freebsd"],
};
const CPU = { arm64: ["arm64"], x64: ["x64"], 64: ["x64"] };

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => p in PLATFORM);
  const cpu = parts.slice(parts.indexOf(os) + 1).find((p) => p in CPU);
  return { os: PLATFORM[os], cpu: CPU[cpu], libc: parts.includes("musl") ? ["musl"] : undefined };
}

const path = "package-lock.json";
const lock = JSON.parse(readFileSync(path, "utf8"));
let added = 0;
for (const [location, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === "" ? "" : `${location}/`;
    const nested = `${base}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[hoisted]?.version === version) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os) continue;
    // npm resolves a missing nested dependency at the top level first, so add it there unless that
    // slot holds another version.
    const target = lock.packages[hoisted] ? nested : hoisted;
    lock.packages[target] = { version, dev: entry.dev, optional: true, os, cpu, libc };
    added++;
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} foreign-platform entries`);
