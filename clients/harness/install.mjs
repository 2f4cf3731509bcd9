// `node clients/harness/install.mjs <language>`: installs a client's package exactly as its README says, from a clean
// temporary folder, and uses it against the API the harness started. The README's commands are the shell block after
// its `<!-- install-check -->` marker: they build the package (npm pack, a wheel and an sdist, a Composer package
// required by version, a .nupkg) in a copy of the client's folder alone at `warehouse-api/clients/<language>` (as a
// checkout of this repository would sit next to your project), and install it into an empty project folder `my-app`.
// Then a small program in my-app makes one call through the installed package (GET /auth/me, which must name the
// tenant of WAREHOUSE_API_KEY); Python's sdist is installed into a second fresh project and called the same way.
// Last, the README's scenario runs as written, and its webhook block verifies the real order.created delivery of the
// scenario's order, which the harness's receiver (the proxy's /__harness/webhooks) caught.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Webhook } from "standardwebhooks";

const root = join(import.meta.dirname, "../..");

/** The installed .NET assembly (where `nuget install` puts it in my-app) and how a program is compiled against it and run. */
const DOTNET_LIB = "packages/Warehouse.Api.1.0.0/lib/net471";
const runCSharp = (file) => {
  const exe = file.replace(/\.cs$/, ".exe");
  return [
    "sh",
    "-c",
    `mcs -nologo -out:${exe} -r:${DOTNET_LIB}/Warehouse.Api.dll -r:System.Net.Http.dll ${file} && MONO_PATH=${DOTNET_LIB} mono ${exe}`,
  ];
};

/**
 * Each language: the program that makes one call through the installed package (GET /auth/me, naming the tenant), the
 * files the README's scenario and webhook blocks are saved as, and how a file of that language runs in my-app.
 */
const LANGUAGES = {
  typescript: {
    check: [
      "check.mjs",
      'import { WarehouseClient } from "@warehouse-api/client";\n' +
        "const client = new WarehouseClient({ baseUrl: process.env.WMS_BASE_URL, apiKey: process.env.WMS_API_KEY });\n" +
        "const me = await client.auth.me();\n" +
        'console.log("typescript client installed: tenant", me.tenant?.id);\n',
    ],
    scenario: "scenario.mjs",
    webhook: "webhook.mjs",
    run: (file) => ["node", file],
  },
  python: {
    check: [
      "check.py",
      "import os\nfrom warehouse_api import WarehouseClient, __version__\n" +
        'client = WarehouseClient(os.environ["WMS_BASE_URL"], api_key=os.environ["WMS_API_KEY"])\n' +
        'print("python client", __version__, "installed: tenant", client.auth.me().tenant.id)\n',
    ],
    scenario: "scenario.py",
    webhook: "webhook.py",
    run: (file) => [".venv/bin/python", file],
  },
  php: {
    check: [
      "check.php",
      "<?php\nrequire __DIR__ . '/vendor/autoload.php';\n" +
        "$client = new Warehouse\\Api\\WarehouseClient(['base_url' => getenv('WMS_BASE_URL'), 'api_key' => getenv('WMS_API_KEY')]);\n" +
        "echo 'php client ', Warehouse\\Api\\Generated\\Version::CLIENT, ' installed: tenant ', $client->auth->me()->tenant->id, PHP_EOL;\n",
    ],
    scenario: "scenario.php",
    webhook: "webhook.php",
    run: (file) => ["php", file],
  },
  dotnet: {
    check: [
      "Check.cs",
      "using System;\nusing Warehouse.Api;\n" +
        "public static class Check { public static void Main() {\n" +
        '  var client = new WarehouseClient(new WarehouseClientOptions { BaseUrl = Environment.GetEnvironmentVariable("WMS_BASE_URL"), ApiKey = Environment.GetEnvironmentVariable("WMS_API_KEY") });\n' +
        "  var me = client.Auth.MeAsync().GetAwaiter().GetResult();\n" +
        '  Console.WriteLine("dotnet client " + ClientVersion.Value + " installed: tenant " + me.Tenant.Id); } }\n',
    ],
    scenario: "Scenario.cs",
    webhook: "Receiver.cs",
    run: runCSharp,
  },
};

/** What every language's scenario prints (docs/clients.md): the order read back, and the stock it reserved. */
const SCENARIO_OUTPUT = /^SO-\d+ pending: 2 x WID-001; stock 10 on hand, 2 reserved, 8 available$/im;

/** What every language's webhook block prints: the verified event's type and its order's number. */
const webhookOutput = (number) => new RegExp(`^order\\.created: ${number}$`, "m");

/** A code block in a README (after `<!-- scenario -->`) or on the docs page (`<!-- scenario: python -->`). */
function codeBlock(markdown, marker) {
  const match = markdown.match(new RegExp(`<!-- ${marker} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``));
  if (!match) throw new Error(`no \`<!-- ${marker} -->\` code block`);
  return match[1];
}

/** The README's install commands: the shell block after the marker. */
export function installCommands(readme) {
  const match = readme.match(/<!-- install-check -->\s*```sh\n([\s\S]*?)```/);
  if (!match) throw new Error("the README has no `<!-- install-check -->` block");
  return match[1];
}

/** PATH with, first, the folder of a python3 that can build a wheel and an sdist offline (build, setuptools, wheel, venv). */
function pathForPython() {
  for (const python of ["python3", "/usr/bin/python3"]) {
    const probe = spawnSync(
      python,
      ["-c", "import build, setuptools, wheel, venv, sys; print(sys.executable)"],
      {
        encoding: "utf8",
      },
    );
    if (probe.status === 0) return `${dirname(probe.stdout.trim())}:${process.env.PATH}`;
  }
  throw new Error(
    "no python3 with build, setuptools, wheel and venv: apt-get install python3-build python3-setuptools python3-wheel python3-venv",
  );
}

/** Runs a command to its end, echoing its output; returns its standard output. */
function run(command, args, cwd, path = process.env.PATH, environment = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, PATH: path, CI: "true", ...apiEnvironment, ...environment },
  });
  process.stdout.write(result.stdout ?? "");
  process.stderr.write(result.stderr ?? "");
  if (result.status !== 0)
    throw new Error(`${[command, ...args].join(" ")} exited ${result.status ?? result.error}`);
  return result.stdout;
}

/** The API the programs call, under the names the READMEs use. */
const apiEnvironment = {
  WMS_BASE_URL: process.env.WAREHOUSE_BASE_URL,
  WMS_API_KEY: process.env.WAREHOUSE_API_KEY,
};

/** Writes the check program into a project with the package installed, runs it, and asserts its call reached the API. */
function callThroughPackage(project, path) {
  const [file, program] = LANGUAGES[language].check;
  writeFileSync(join(project, file), program);
  const [command, ...args] = LANGUAGES[language].run(file);
  const output = run(command, args, project, path);
  if (!output.includes(`tenant ${process.env.WAREHOUSE_TENANT_ID}`))
    throw new Error(
      `the installed ${language} client's GET /auth/me did not name tenant ${process.env.WAREHOUSE_TENANT_ID}`,
    );
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

/** The README's block after `<!-- marker -->`, which must be the docs page's block of this language, character for character. */
function readmeBlock(marker) {
  const block = codeBlock(readFileSync(join(root, "clients", language, "README.md"), "utf8"), marker);
  const onDocsPage = codeBlock(readFileSync(join(root, "docs/clients.md"), "utf8"), `${marker}: ${language}`);
  if (onDocsPage !== block)
    throw new Error(`docs/clients.md's ${language} ${marker} differs from clients/${language}/README.md's`);
  return block;
}

/** Runs a README block, as written, saved as `file` in the project with the package installed; returns its output. */
function runBlock(marker, file, project, path, environment = {}) {
  writeFileSync(join(project, file), readmeBlock(marker));
  const [program, ...args] = LANGUAGES[language].run(file);
  return run(program, args, project, path, environment);
}

/** A fetch retried while the connection fails (a kept-alive socket the proxy closed just then). */
async function fetchRetrying(url, init) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (attempt === 5) throw error;
      await sleep(500);
    }
  }
}

/** The API as the harness calls it itself, with the tenant's key (one Idempotency-Key for every attempt). */
async function api(method, path, body) {
  const response = await fetchRetrying(`${process.env.WAREHOUSE_BASE_URL}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${process.env.WAREHOUSE_API_KEY}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? undefined : (await response.json()).data;
}

/**
 * The order.created delivery of order `number` that the receiver caught, signed with `secret` (another subscription of
 * the tenant may have sent the same event).
 */
async function deliveryOf(number, secret) {
  const verifier = new Webhook(secret);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const response = await fetchRetrying(`${process.env.WAREHOUSE_WEBHOOK_URL}?type=order.created&wait=5`);
    const delivery = (await response.json()).find((d) => {
      try {
        verifier.verify(d.body, d.headers);
        return JSON.parse(d.body).data?.number === number;
      } catch {
        return false;
      }
    });
    if (delivery) return delivery;
    await sleep(1000);
  }
  throw new Error(`no order.created delivery of ${number} signed for the README's subscription within 90 s`);
}

/**
 * Runs the README's scenario as written, then its webhook block with the real delivery of the scenario's order: the
 * harness subscribes its receiver first (as the README says to, once) and hands the block the secret, body and
 * headers through the environment.
 */
async function runScenario(project, path) {
  const subscription = await api("POST", "/webhooks", {
    url: process.env.WAREHOUSE_WEBHOOK_URL,
    events: ["order.created"],
    description: "README webhook block",
  });
  try {
    const output = runBlock("scenario", LANGUAGES[language].scenario, project, path);
    if (!SCENARIO_OUTPUT.test(output))
      throw new Error(
        `the ${language} README's scenario printed ${JSON.stringify(output)}, not ${SCENARIO_OUTPUT}`,
      );
    const number = output.match(/^(SO-\d+) /m)?.[1];
    const delivery = await deliveryOf(number, subscription.secret);
    const received = runBlock("webhook", LANGUAGES[language].webhook, project, path, {
      WMS_WEBHOOK_SECRET: subscription.secret,
      WMS_WEBHOOK_BODY: delivery.body,
      WMS_WEBHOOK_HEADERS: JSON.stringify(delivery.headers),
      WMS_WEBHOOK_ID: delivery.headers["webhook-id"],
      WMS_WEBHOOK_TIMESTAMP: delivery.headers["webhook-timestamp"],
      WMS_WEBHOOK_SIGNATURE: delivery.headers["webhook-signature"],
    });
    if (!webhookOutput(number).test(received))
      throw new Error(
        `the ${language} README's webhook block printed ${JSON.stringify(received)}, not "order.created: ${number}"`,
      );
  } finally {
    await api("DELETE", `/webhooks/${subscription.id}`);
  }
}

const language = process.argv[2];
if (!LANGUAGES[language]) {
  console.error(`usage: node clients/harness/install.mjs <${Object.keys(LANGUAGES).join("|")}>`);
  process.exit(2);
}
const folder = mkdtempSync(join(tmpdir(), `wms-install-${language}-`));
try {
  const source = join(root, "clients", language);
  const copy = join(folder, "warehouse-api", "clients", language);
  cpSync(source, copy, {
    recursive: true,
    filter: (path) =>
      !/\/(node_modules|dist|build|bin|obj|vendor|__pycache__|\.pytest_cache|[^/]*\.egg-info)(\/|$)/.test(
        path.slice(source.length),
      ),
  });
  const app = join(folder, "my-app");
  cpSync(join(root, "clients", "README.md"), join(folder, "warehouse-api", "clients", "README.md"));
  mkdirSync(app);
  const commands = installCommands(readFileSync(join(source, "README.md"), "utf8"));
  console.log(`${language}: following README.md in ${app}:\n${commands}`);
  const path = language === "python" ? pathForPython() : undefined;
  run("bash", ["-euo", "pipefail", "-c", commands], app, path);
  if (language === "dotnet") checkProject(copy);
  callThroughPackage(app, path);
  if (language === "python") {
    // The sdist the README's build also wrote, into a project of its own: pip builds it with Debian's setuptools
    // and wheel (seen through --system-site-packages; nothing is downloaded).
    const sdistApp = join(folder, "my-sdist-app");
    mkdirSync(sdistApp);
    run(
      "bash",
      [
        "-euo",
        "pipefail",
        "-c",
        "python3 -m venv --system-site-packages .venv && " +
          ".venv/bin/pip install --no-index --no-build-isolation --no-cache-dir ../my-app/dist/warehouse-api-1.0.0.tar.gz",
      ],
      sdistApp,
      path,
    );
    callThroughPackage(sdistApp, path);
  }
  await runScenario(app, path);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
