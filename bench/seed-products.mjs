// Loads products into one tenant through the import endpoint (5,000 per request, all or nothing).
// Used by bench/catalog.mjs; on its own: node bench/seed-products.mjs <apiBase> <apiKey> <count>
const BATCH = 5000;
const CATEGORIES = 20;
// Names vary like a real catalog's (50 nouns x 20 materials), so a search term matches a realistic share of rows.
const NOUNS =
  "crate bolt hinge pallet drill hammer glove helmet ladder rope chain hook lamp cable switch valve pump hose filter belt gear wheel spring nut washer screw nail clamp brush paint tape glue saw blade chisel level wrench socket plug fuse panel shelf bin cart jack mask boot vest apron bag".split(
    " ",
  );
const MATERIALS =
  "steel oak brass copper nylon rubber cotton leather plastic glass pine birch zinc iron titanium carbon bamboo wool canvas felt".split(
    " ",
  );

export async function seedProducts(api, key, count, prefix = "P") {
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => {
      const n = start + i;
      return {
        sku: `${prefix}-${String(n).padStart(6, "0")}`,
        name: `${MATERIALS[n % MATERIALS.length]} ${NOUNS[Math.floor(n / MATERIALS.length) % NOUNS.length]} ${n}`,
        category: `cat-${n % CATEGORIES}`,
        price: (n % 1000) + 0.99,
        status: n % 10 === 0 ? "Inactive" : "Active",
      };
    });
    const response = await fetch(`${api}/products/import`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify(rows),
    });
    if (response.status !== 200)
      throw new Error(`import failed: ${response.status} ${await response.text()}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [api, key, count] = process.argv.slice(2);
  await seedProducts(api, key, Number(count));
  console.log(`seeded ${count} products`);
}
