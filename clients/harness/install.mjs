// `node clients/harness/install.mjs <language>`: installs a client exactly as its README says, from a clean temporary
// folder. The README's commands are the shell block after its `<!-- install-check -->` marker; they run in an empty
// project folder `my-app`, next to a copy of the client's folder alone at `warehouse-api/clients/<language>` (as a
// checkout of this repository would sit next to your project). Then a small program uses the installed package.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const root = join(import.meta.dirname, "../..");

/** Each language: the program that proves the installed package works (run in my-app after the README's commands). */
const CHECKS = {
  typescript: [
    "check.mjs",
    'import { WarehouseClient, NotFoundError } from "@warehouse-api/client";\n' +
      'const client = new WarehouseClient({ baseUrl: "http://127.0.0.1:9", apiKey: "k" });\n' +
      'if (typeof client.products.create !== "function" || !(new NotFoundError({ status: 404, code: "NOT_FOUND", message: "x" }) instanceof Error)) process.exit(1);\n' +
      'console.log("typescript client installed");\n',
    ["node", "check.mjs"],
  ],
  python: [
    "check.py",
    "from warehouse_api import WarehouseClient, __version__\nfrom warehouse_api.models import Product\n" +
      'client = WarehouseClient("http://127.0.0.1:9", api_key="k")\n' +
      'assert callable(client.products.create) and Product.from_dict({"sku": "A"}).sku == "A"\n' +
      'print("python client installed", __version__)\n',
    [".venv/bin/python", "check.py"],
  ],
  php: [
    "check.php",
    "<?php\nrequire __DIR__ . '/vendor/autoload.php';\n" +
      "$client = new Warehouse\\Api\\WarehouseClient(['base_url' => 'http://127.0.0.1:9', 'api_key' => 'k']);\n" +
      "if (!method_exists($client->products, 'create')) { exit(1); }\n" +
      "echo 'php client installed ', Warehouse\\Api\\Generated\\Version::CLIENT, PHP_EOL;\n",
    ["php", "check.php"],
  ],
  dotnet: [
    "Check.cs",
    "using System;\nusing Warehouse.Api;\nusing Warehouse.Api.Models;\n" +
      "public static class Check { public static int Main() {\n" +
      '  var client = new WarehouseClient(new WarehouseClientOptions { BaseUrl = "http://127.0.0.1:9", ApiKey = "k" });\n' +
      '  var request = new CreateProductRequest { Sku = "A", Name = "B" };\n' +
      '  Console.WriteLine("dotnet client installed " + ClientVersion.Value + " " + request.ToJson());\n' +
      "  return client.Products == null ? 1 : 0; } }\n",
    [
      "sh",
      "-c",
      "mcs -nologo -out:Check.exe -r:lib/Warehouse.Api.dll -r:System.Net.Http.dll Check.cs && MONO_PATH=lib mono Check.exe",
    ],
  ],
};

/** The README's install commands: the shell block after the marker. */
export function installCommands(readme) {
  const match = readme.match(/<!-- install-check -->\s*```sh\n([\s\S]*?)```/);
  if (!match) throw new Error("the README has no `<!-- install-check -->` block");
  return match[1];
}

/** PATH with, first, the folder of a python3 that can build a wheel offline (setuptools, wheel, venv). */
function pathForPython() {
  for (const python of ["python3", "/usr/bin/python3"]) {
    const probe = spawnSync(python, ["-c", "import setuptools, wheel, venv, sys; print(sys.executable)"], {
      encoding: "utf8",
    });
    if (probe.status === 0) return `${dirname(probe.stdout.trim())}:${process.env.PATH}`;
  }
  throw new Error(
    "no python3 with setuptools, wheel and venv: apt-get install python3-setuptools python3-wheel python3-venv",
  );
}

function run(command, args, cwd, path = process.env.PATH) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, PATH: path, CI: "true" },
  });
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  if (result.status !== 0)
    throw new Error(`${[command, ...args].join(" ")} exited ${result.status ?? result.error}`);
}

/** The .csproj stays a NuGet project: well-formed, with the package's identity, and the sources it packs. */
function checkProject(folder) {
  const project = readFileSync(join(folder, "Warehouse.Api.csproj"), "utf8");
  run(
    "python3",
    [
      "-c",
      "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])",
      join(folder, "Warehouse.Api.csproj"),
    ],
    folder,
  );
  for (const element of ["PackageId", "Version", "TargetFrameworks", "Description"]) {
    if (!new RegExp(`<${element}>[^<]+</${element}>`).test(project))
      throw new Error(`Warehouse.Api.csproj has no ${element}`);
  }
  if (!project.includes('<Project Sdk="Microsoft.NET.Sdk">'))
    throw new Error("Warehouse.Api.csproj is not an SDK project");
}

const language = process.argv[2];
const check = CHECKS[language];
if (!check) {
  console.error(`usage: node clients/harness/install.mjs <${Object.keys(CHECKS).join("|")}>`);
  process.exit(2);
}
const folder = mkdtempSync(join(tmpdir(), `wms-install-${language}-`));
try {
  const source = join(root, "clients", language);
  const copy = join(folder, "warehouse-api", "clients", language);
  cpSync(source, copy, {
    recursive: true,
    filter: (path) =>
      !/\/(node_modules|dist|vendor|__pycache__|\.pytest_cache)(\/|$)/.test(path.slice(source.length)),
  });
  const app = join(folder, "my-app");
  cpSync(join(root, "clients", "README.md"), join(folder, "warehouse-api", "clients", "README.md"));
  spawnSync("mkdir", ["-p", app]);
  const commands = installCommands(readFileSync(join(source, "README.md"), "utf8"));
  console.log(`${language}: following README.md in ${app}:\n${commands}`);
  run("bash", ["-euo", "pipefail", "-c", commands], app, language === "python" ? pathForPython() : undefined);
  if (language === "dotnet") checkProject(copy);
  const [file, program, command] = check;
  writeFileSync(join(app, file), program);
  run(command[0], command.slice(1), app);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
