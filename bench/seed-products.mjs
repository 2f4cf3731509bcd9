// Loads products into one tenant through the import endpoint (5,000 per request, all or nothing).
// Used by bench/catalog.mjs; on its own: node bench/seed-products.mjs <apiBase> <apiKey> <count>
const BATCH = 5000;
const CATEGORIES = 20;

export async function seedProducts(api, key, count, prefix = "P") {
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => {
      const n = start + i;
      return {
        sku: `${prefix}-${String(n).padStart(6, "0")}`,
        name: `Widget ${n} ${["red", "blue", "green", "steel", "oak"][n % 5]}`,
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
