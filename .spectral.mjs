// biome-ignore-all lint/suspicious/noThenProperty: a Spectral rule names its check `then`.
// Spectral's ruleset for the served OpenAPI document (`npm run openapi:lint`): `spectral:oas` and the OWASP API
// Security ruleset, both from npm (a JavaScript ruleset imports them, so linting never fetches anything). The real
// findings are fixed in the document; each rule switched off or narrowed below says why
// (docs/decisions/openapi.md).

import { defined, schema } from "@stoplight/spectral-functions";
import owasp from "@stoplight/spectral-owasp-ruleset";
import { oas } from "@stoplight/spectral-rulesets";

// What a client sends: parameters, request bodies, and the components named `...Request` that bodies use.
const requestSchemas = [
  "$.paths[*][*].parameters[*].schema",
  "$.paths[*][*].requestBody.content[*].schema",
  "$.components.schemas[?(@property.match(/Request$/))]",
];
const ofType = (type) => [
  ...requestSchemas.flatMap((root) => [
    `${root}..[?(@ && @.type == "${type}")]`,
    `${root}..[?(@ && @.type && @.type.constructor.name === "Array" && @.type.includes("${type}"))]`,
  ]),
  // A parameter's schema is itself the string or integer (`..` finds only what is inside it).
  `$.paths[*][*].parameters[?(@.schema && @.schema.type == "${type}")].schema`,
];
const requires = (...alternatives) => ({
  function: schema,
  functionOptions: { schema: { type: "object", anyOf: alternatives.map((name) => ({ required: [name] })) } },
});

// The public operations: they authenticate with what their body carries (a password, a refresh, reset or
// invitation token) or need nothing (health); each is throttled per client or email instead.
const publicOperations = [
  "/paths/~1api~1v1~1health/get",
  "/paths/~1api~1v1~1auth~1login/post",
  "/paths/~1api~1v1~1auth~1refresh/post",
  "/paths/~1api~1v1~1auth~1logout/post",
  "/paths/~1api~1v1~1auth~1password-reset/post",
  "/paths/~1api~1v1~1auth~1password-reset~1confirm/post",
  "/paths/~1api~1v1~1auth~1invitations~1inspect/post",
  "/paths/~1api~1v1~1auth~1invitations~1accept/post",
];

// The file `npm run openapi:lint` exports the served document to (overrides name it; globs skip dot files).
const DOCUMENT = ".openapi.json";

const platformOperations = [
  "/paths/~1api~1v1~1platform~1tenants/get",
  "/paths/~1api~1v1~1platform~1tenants/post",
  "/paths/~1api~1v1~1platform~1tenants~1%7Bid%7D/patch",
  "/paths/~1api~1v1~1platform~1tenants~1%7Bid%7D~1move/post",
  "/paths/~1api~1v1~1platform~1shards/get",
  "/paths/~1api~1v1~1platform~1moves~1%7Bid%7D/get",
];

export default {
  extends: [[oas, "recommended"], owasp],
  rules: {
    // OpenAPI 3.1 lets a non-OAuth requirement list role names: ours list the scopes an operation needs
    // (Redocly's `security-defined` checks the schemes themselves).
    "oas3-operation-security-defined": "off",
    // CORS is answered per request by src/http/cors.ts: Access-Control-Allow-Origin goes only to the configured
    // web origins, so declaring it on every response would promise it to every caller.
    "owasp:api8:2023-define-cors-origin": "off",
    // Integers are JSON numbers within JavaScript's safe range; where the API bounds one, minimum and maximum say
    // so. An int32/int64 format would make generators pick 64-bit types (long, BigInt) for counts and quantities.
    "owasp:api4:2023-integer-format": "off",
    // Lengths, sizes and bounds protect the server from what it is sent, so they are required of what a client
    // sends (the request-* rules below). Responses are written by the server and bounded by what it accepted.
    "owasp:api4:2023-string-limit": "off",
    "owasp:api4:2023-array-limit": "off",
    "owasp:api4:2023-integer-limit": "off",
    // A format, pattern or enum on every string would invent constraints the API does not have (names, notes,
    // addresses are free text within their length): the request-string-limit rule bounds them instead.
    "owasp:api4:2023-string-restricted": "off",
    // OWASP's rule wants exactly one style of rate-limit headers (a oneOf); a counted response carries both the
    // de-facto X-RateLimit-* trio and the IETF draft's RateLimit/RateLimit-Policy, so either is accepted here.
    "owasp:api4:2023-rate-limit": "off",
    "rate-limit-headers": {
      description: "Every 2XX and 4XX response of a counted operation declares its rate-limit headers.",
      message: "All 2XX and 4XX responses should define rate limiting headers.",
      severity: "error",
      given: "$.paths[*]..responses[?(@property.match(/^(2|4)/))]",
      then: {
        field: "headers",
        function: schema,
        functionOptions: {
          schema: {
            type: "object",
            anyOf: [{ required: ["RateLimit"] }, { required: ["X-RateLimit-Limit"] }],
          },
        },
      },
    },
    "request-string-limit": {
      description: "Every string a client sends is bounded: maxLength, enum, const or a pattern.",
      message: "A request string must specify maxLength, enum, const or pattern.",
      severity: "error",
      given: ofType("string"),
      then: requires("maxLength", "enum", "const", "pattern", "format"),
    },
    "request-array-limit": {
      description: "Every array a client sends is bounded by maxItems.",
      message: "A request array must specify maxItems.",
      severity: "error",
      given: ofType("array"),
      then: { field: "maxItems", function: defined },
    },
    "request-integer-limit": {
      description: "Every integer a client sends has a minimum and a maximum.",
      message: "A request integer must specify minimum and maximum.",
      severity: "error",
      given: [...ofType("integer"), ...ofType("number")],
      then: [
        { field: "minimum", function: defined },
        { field: "maximum", function: defined },
      ],
    },
  },
  overrides: [
    {
      files: publicOperations.map((pointer) => `${DOCUMENT}#${pointer}`),
      rules: {
        "owasp:api2:2023-write-restricted": "off",
        "owasp:api2:2023-read-restricted": "off",
        // Throttled per client or email (429 with Retry-After), not counted by a tenant's plan.
        "rate-limit-headers": "off",
        "owasp:api8:2023-define-error-responses-401": "off",
        "owasp:api4:2023-rate-limit-responses-429": "off",
      },
    },
    {
      // The platform operator's token is not a tenant's credential, so no tenant's plan counts these calls.
      files: platformOperations.map((pointer) => `${DOCUMENT}#${pointer}`),
      rules: { "rate-limit-headers": "off", "owasp:api4:2023-rate-limit-responses-429": "off" },
    },
    {
      // The document names the origin it is served from: http only under `wrangler dev`, where CI exports it.
      files: [`${DOCUMENT}#/servers/0/url`],
      rules: { "owasp:api8:2023-no-server-http": "off" },
    },
  ],
};
