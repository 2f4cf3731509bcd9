// Renders the API reference with Scalar's bundle, served by the Worker itself (no CDN, works offline).
// Nothing here reaches another origin: no web fonts, no AI agent or MCP links, no CORS proxy (same-origin API).
const root = document.getElementById("app");
globalThis.Scalar.createApiReference(root, {
  url: root.dataset.openapiUrl,
  withDefaultFonts: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  telemetry: false,
  showDeveloperTools: "never",
});
