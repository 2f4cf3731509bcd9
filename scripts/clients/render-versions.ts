// Each client's version, read from its package manifest (the one place it is written), rendered into a small
// generated file the client's User-Agent reads: `warehouse-api-<language>/<version> (<runtime>)`.
import { readFileSync } from "node:fs";
import { GENERATED_NOTICE } from "./names.ts";

const read = (path: string) => readFileSync(path, "utf8");

function manifestVersion(path: string, pattern: RegExp): string {
  const version = read(path).match(pattern)?.[1];
  if (!version) throw new Error(`${path}: no version`);
  return version;
}

export function renderVersions(): Map<string, string> {
  const typescript = JSON.parse(read("clients/typescript/package.json")).version as string;
  const python = manifestVersion("clients/python/pyproject.toml", /^version\s*=\s*"([^"]+)"/m);
  const php = JSON.parse(read("clients/php/composer.json")).version as string;
  const dotnet = manifestVersion("clients/dotnet/Warehouse.Api.csproj", /<Version>([^<]+)<\/Version>/);
  return new Map([
    [
      "clients/typescript/src/generated/version.ts",
      `// ${GENERATED_NOTICE}\n/** This package's version (package.json). */\nexport const CLIENT_VERSION = ${JSON.stringify(typescript)};\n`,
    ],
    [
      "clients/python/warehouse_api/_version.py",
      `# ${GENERATED_NOTICE}\n__version__ = ${JSON.stringify(python)}\n`,
    ],
    [
      "clients/php/src/Generated/Version.php",
      `<?php\n\n// ${GENERATED_NOTICE}\n\ndeclare(strict_types=1);\n\nnamespace Warehouse\\Api\\Generated;\n\n/** This package's version (composer.json). */\nfinal class Version\n{\n    public const CLIENT = ${JSON.stringify(php)};\n}\n`,
    ],
    [
      "clients/dotnet/src/Generated/Version.g.cs",
      `// ${GENERATED_NOTICE}\nnamespace Warehouse.Api\n{\n    /// <summary>This package's version (Warehouse.Api.csproj).</summary>\n    public static class ClientVersion\n    {\n        public const string Value = ${JSON.stringify(dotnet)};\n    }\n}\n`,
    ],
  ]);
}
