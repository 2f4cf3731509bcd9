using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading.Tasks;

namespace Warehouse.Api.Tests
{
    /// <summary>The scenario every client runs against the live API (see clients/README.md), here for C#.</summary>
    public static class ScenarioTests
    {
        private static readonly WarehouseClient Client = new WarehouseClient(new WarehouseClientOptions
        {
            BaseUrl = Harness.Env("WAREHOUSE_BASE_URL"),
            ApiKey = Harness.Env("WAREHOUSE_API_KEY"),
        });

        public static readonly Test[] All =
        {
            new Test("has a method for every operation of the API", HasAMethodForEveryOperation),
            new Test("reads and writes JSON", ReadsAndWritesJson),
            new Test("creates a product, stocks it, sells it and ships it", SellsAndShips),
            new Test("walks a list across three pages with the iterator", WalksThreePages),
            new Test("throws a 404 as WarehouseApiException with the request id", NotFound),
            new Test("throws a 400 with one message per invalid field", ValidationFailed),
            new Test("retries a create after a dropped connection and creates it exactly once", DroppedConnection),
            new Test("logs in, refreshes before expiry and rotates the refresh token", LoginAndRefresh),
            new Test("holds stock, lists the hold and releases it", Holds),
            new Test("follows the events feed from a stored cursor: every later event once", EventsFeed),
            new Test("reads stock as it was at an instant (asOf)", StockAsOf),
            new Test("carries the Consistency-Token of the last response into the next request", ConsistencyToken),
            new Test("verifies a webhook signature and refuses a tampered one", Webhooks),
            // Last: the harness spent this tenant's budget when the run began, so the wait is the rest of that minute.
            new Test("waits out a Starter tenant's 429 through Retry-After", RateLimited),
        };

        private static string Pascal(string name)
        {
            return char.ToUpperInvariant(name[0]) + name.Substring(1);
        }

        private static Task HasAMethodForEveryOperation()
        {
            var table = (JsonObject)Json.Parse(File.ReadAllText(Harness.Env("WAREHOUSE_OPERATIONS")));
            var operations = table.GetArray("operations").Cast<JsonObject>().ToList();
            var missing = new List<string>();
            foreach (var op in operations)
            {
                var method = op.GetString("method");
                var names = new List<string> { Pascal(method) + "Async" };
                if (op.GetBoolean("paged") || op.GetBoolean("cursor")) names.Add(Pascal(method) + "AllAsync");
                if (op.GetBoolean("csv")) names.Add(Pascal(method) + "CsvAsync");
                var group = typeof(WarehouseClient).GetProperty(Pascal(op.GetString("group")));
                missing.AddRange(names.Where(name => group == null || group.PropertyType.GetMethod(name) == null)
                    .Select(name => op.GetString("operationId") + " -> " + op.GetString("group") + "." + name));
            }
            Assert.Equal("", string.Join(", ", missing), "operations without a method");
            Assert.True(operations.Count > 50, "the table lists every operation");
            return Task.CompletedTask;
        }

        private static Task ReadsAndWritesJson()
        {
            var parsed = (JsonObject)Json.Parse("{\"a\":[1,2.50,-3e2,true,null,\"\\u00e9\\n\\\"\"],\"b\":{}}");
            var a = parsed.GetArray("a");
            Assert.Equal(1L, a[0], "integer");
            Assert.Equal(2.50m, a[1], "decimal");
            Assert.Equal(-300.0, a[2], "exponent");
            Assert.Equal("\u00e9\n\"", a[5], "escapes");
            Assert.Equal("{\"a\":[1,2.50,-300,true,null,\"é\\n\\\"\"],\"b\":{}}", Json.Serialize(parsed), "round trip");
            Assert.Equal("{\"sku\":\"X\",\"price\":19.99,\"lines\":[{\"q\":2}],\"when\":null}",
                Json.Serialize(new { sku = "X", price = 19.99m, lines = new[] { new { q = 2 } }, when = (string)null }), "anonymous object");
            Assert.Throws<FormatException>(() => Json.Parse("{\"a\":1,}"));
            return Task.CompletedTask;
        }

        private static async Task SellsAndShips()
        {
            var u = Harness.Unique();
            var warehouse = await Client.Warehouses.CreateAsync(new { code = "WH-" + u, name = "Main" });
            var location = await Client.Locations.CreateAsync(new { warehouseId = warehouse.GetString("id"), code = "A-" + u, name = "Aisle A", type = "bin" });
            var product = await Client.Products.CreateAsync(new { sku = "CS-" + u, name = "Widget", price = 19.99m });
            Assert.Equal("CS-" + u, product.GetString("sku"), "sku");
            Assert.Equal(19.99m, product.GetDecimal("price"), "price");
            Assert.Equal("Active", product.GetString("status"), "status");

            var adjusted = await Client.Inventory.AdjustAsync(new { productId = product.GetString("id"), locationId = location.GetString("id"), quantity = 10, reason = "received" });
            Assert.Equal(10L, adjusted.GetObject("stockLevel").GetInt64("onHand"), "onHand after the adjustment");

            var order = await Client.Orders.CreateSalesAsync(new
            {
                customerId = Guid.NewGuid(),
                lines = new[] { new { productId = product.GetString("id"), quantity = 3, price = 19.99m } },
                shippingAddress = new { street = "1 Main St", city = "Springfield", zip = "12345" },
            });
            Assert.Equal("pending", order.GetString("status"), "order status");
            var reserved = (await Client.Inventory.ListStockAsync(productId: product.GetString("id"))).Items[0];
            Assert.Equal("10/3/7", reserved.GetInt64("onHand") + "/" + reserved.GetInt64("reserved") + "/" + reserved.GetInt64("available"), "reserved stock");

            var shipped = await Client.Orders.UpdateStatusAsync(order.GetString("id"), new { status = "shipped", trackingNumber = "1Z999" });
            Assert.Equal("shipped 1Z999", shipped.GetString("status") + " " + shipped.GetString("trackingNumber"), "shipped order");
            var stock = (await Client.Inventory.ListStockAsync(productId: product.GetString("id"))).Items[0];
            Assert.Equal("7/0/7", stock.GetInt64("onHand") + "/" + stock.GetInt64("reserved") + "/" + stock.GetInt64("available"), "shipped stock");
        }

        private static async Task WalksThreePages()
        {
            var category = "cat-" + Harness.Unique();
            for (var i = 0; i < 5; i++) await Client.Products.CreateAsync(new { sku = "PG-" + category + "-" + i, name = "Paged " + i, category });
            await Harness.ClearLogAsync();
            var skus = new List<string>();
            var items = Client.Products.ListAllAsync(pageSize: 2, category: category, sort: "sku");
            while (await items.MoveNextAsync()) skus.Add(items.Current.GetString("sku"));
            Assert.Equal(string.Join(",", Enumerable.Range(0, 5).Select(i => "PG-" + category + "-" + i)), string.Join(",", skus), "skus");
            var pages = (await Harness.LogAsync()).Select(e => e.GetString("path")).Where(p => p.StartsWith("/api/v1/products?", StringComparison.Ordinal))
                .Select(p => p.Split('?')[1].Split('&').First(pair => pair.StartsWith("page=", StringComparison.Ordinal)));
            Assert.Equal("page=1,page=2,page=3", string.Join(",", pages), "pages fetched");
        }

        private static async Task NotFound()
        {
            await Harness.ClearLogAsync();
            var error = await Assert.ThrowsAsync<WarehouseApiException>(() => Client.Products.GetAsync(Guid.NewGuid().ToString()));
            Assert.Equal("404 NOT_FOUND Product not found", error.StatusCode + " " + error.Code + " " + error.Message, "error");
            Assert.True(!string.IsNullOrEmpty(error.RequestId), "the error carries the request id");
            Assert.Equal((await Harness.LogAsync())[0].GetString("requestId"), error.RequestId, "request id");
        }

        private static async Task ValidationFailed()
        {
            var error = await Assert.ThrowsAsync<WarehouseApiException>(() => Client.Products.CreateAsync(new { sku = " ", name = "" }));
            Assert.Equal("400 VALIDATION_FAILED", error.StatusCode + " " + error.Code, "error");
            Assert.True(error.Errors.Contains("sku: SKU is required") && error.Errors.Contains("name: Name is required"),
                "one message per field: " + string.Join("; ", error.Errors));
        }

        private static async Task DroppedConnection()
        {
            var sku = "DROP-" + Harness.Unique();
            await Harness.ProxyAsync("POST", "drop", new { match = sku });
            var product = await Client.Products.CreateAsync(new { sku, name = "Dropped once" });
            Assert.Equal(sku, product.GetString("sku"), "sku");

            var requests = ((JsonObject)await Harness.ProxyAsync("GET", "drop?match=" + Uri.EscapeDataString(sku))).GetArray("requests").Cast<JsonObject>().ToList();
            Assert.Equal("True/False,False/True", string.Join(",", requests.Select(r => r.GetBoolean("dropped") + "/" + r.GetBoolean("replayed"))), "dropped, then replayed");
            Assert.True(!string.IsNullOrEmpty(requests[0].GetString("idempotencyKey")), "the create carried an Idempotency-Key");
            Assert.Equal(requests[0].GetString("idempotencyKey"), requests[1].GetString("idempotencyKey"), "the retry's key");
            Assert.Equal(1L, (await Client.Products.ListAsync(search: sku)).TotalCount, "products with that sku");
        }

        private static async Task LoginAndRefresh()
        {
            // Refreshing 3600 s before expiry makes every call after the login refresh first (tokens live 1 hour).
            using (var user = new WarehouseClient(new WarehouseClientOptions
            {
                BaseUrl = Harness.Env("WAREHOUSE_BASE_URL"),
                Email = Harness.Env("WAREHOUSE_EMAIL"),
                Password = Harness.Env("WAREHOUSE_PASSWORD"),
                TenantId = Harness.Env("WAREHOUSE_TENANT_ID"),
                RefreshBeforeExpiry = TimeSpan.FromSeconds(3600),
            }))
            {
                await Harness.ClearLogAsync();
                Assert.Equal("user", (await user.Auth.MeAsync()).GetString("type"), "principal");
                await user.Products.ListAsync(pageSize: 1);
                // A second refresh only succeeds with the rotated token: reusing the first would revoke the login.
                await user.Products.ListAsync(pageSize: 1);
                var calls = (await Harness.LogAsync()).Select(e => e.GetString("method") + " " + e.GetString("path").Split('?')[0] + " " + e.GetInt64("status"));
                Assert.Equal(string.Join("\n", new[]
                {
                    "POST /api/v1/auth/login 200",
                    "GET /api/v1/auth/me 200",
                    "POST /api/v1/auth/refresh 200",
                    "GET /api/v1/products 200",
                    "POST /api/v1/auth/refresh 200",
                    "GET /api/v1/products 200",
                }), string.Join("\n", calls), "calls");
            }
        }

        /// <summary>A new product with <paramref name="quantity"/> units at a new location.</summary>
        private static async Task<Tuple<JsonObject, JsonObject, JsonObject>> StockedProductAsync(int quantity)
        {
            var u = Harness.Unique();
            var warehouse = await Client.Warehouses.CreateAsync(new { code = "WH-" + u, name = "Feed" });
            var location = await Client.Locations.CreateAsync(new { warehouseId = warehouse.GetString("id"), code = "B-" + u, name = "Bin", type = "bin" });
            var product = await Client.Products.CreateAsync(new { sku = "ST-" + u, name = "Stocked" });
            var adjusted = await Client.Inventory.AdjustAsync(new { productId = product.GetString("id"), locationId = location.GetString("id"), quantity, reason = "received" });
            return Tuple.Create(product, location, adjusted);
        }

        private static async Task Holds()
        {
            var stocked = await StockedProductAsync(10);
            var productId = stocked.Item1.GetString("id");
            var reference = "cart-" + stocked.Item1.GetString("sku");
            var hold = await Client.Inventory.CreateHoldAsync(new
            {
                productId,
                quantity = 4,
                locationId = stocked.Item2.GetString("id"),
                expiresAt = DateTime.UtcNow.AddHours(1).ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", System.Globalization.CultureInfo.InvariantCulture),
                reference,
            });
            Assert.Equal("4 active", hold.GetInt64("quantity") + " " + hold.GetString("status"), "the hold");
            var held = (await Client.Inventory.ListStockAsync(productId: productId)).Items[0];
            Assert.Equal("10/6", held.GetInt64("onHand") + "/" + held.GetInt64("available"), "stock while held");
            var listed = (await Client.Inventory.ListHoldsAsync(reference: reference)).Items.Select(h => h.GetString("id"));
            Assert.Equal(hold.GetString("id"), string.Join(",", listed), "holds listed by reference");

            var released = await Client.Inventory.ReleaseHoldAsync(hold.GetString("id"));
            Assert.Equal("released", released.GetString("status"), "released hold");
            var freed = (await Client.Inventory.ListStockAsync(productId: productId)).Items[0];
            Assert.Equal("10/10", freed.GetInt64("onHand") + "/" + freed.GetInt64("available"), "stock after the release");
        }

        private static async Task EventsFeed()
        {
            const string type = "inventory.adjusted";
            var caughtUp = Client.Events.ListAllAsync(type: type);
            await caughtUp.ToListAsync();
            var stored = caughtUp.Cursor;
            Assert.True(!string.IsNullOrEmpty(stored), "a cursor to store");

            var stocked = await StockedProductAsync(1);
            for (var i = 0; i < 4; i++)
                await Client.Inventory.AdjustAsync(new { productId = stocked.Item1.GetString("id"), locationId = stocked.Item2.GetString("id"), quantity = 1, reason = "received" });
            // Pages of 2 events; the reader stops after the third event (inside the second page) and restarts.
            var first = Client.Events.ListAllAsync(after: stored, type: type, limit: 2);
            var seen = new List<string>();
            while (seen.Count < 3 && await first.MoveNextAsync()) seen.Add(first.Current.GetString("id"));
            var resumed = Client.Events.ListAllAsync(after: first.Cursor, type: type, limit: 2);
            seen.AddRange((await resumed.ToListAsync()).Select(e => e.GetString("id")));

            Assert.Equal(5, seen.Count, "events after the stored cursor");
            Assert.Equal(5, seen.Distinct().Count(), "distinct events");
            Assert.Equal(0, (await Client.Events.ListAllAsync(after: resumed.Cursor, type: type).ToListAsync()).Count, "events after the last cursor");
        }

        private static async Task StockAsOf()
        {
            var stocked = await StockedProductAsync(10);
            var productId = stocked.Item1.GetString("id");
            await Client.Inventory.AdjustAsync(new { productId, locationId = stocked.Item2.GetString("id"), quantity = 5, reason = "received" });
            var asOf = stocked.Item3.GetObject("movement").GetString("createdAt");
            var then = (await Client.Inventory.ListStockAsync(productId: productId, asOf: asOf)).Items;
            Assert.Equal(productId + " 10", string.Join(",", then.Select(l => l.GetString("productId") + " " + l.GetInt64("onHand"))), "stock as of the first adjustment");
            Assert.Equal(15L, (await Client.Inventory.ListStockAsync(productId: productId)).Items[0].GetInt64("onHand"), "stock now");
        }

        private static async Task ConsistencyToken()
        {
            await Harness.ProxyAsync("POST", "consistency-token", new { value = "U0hBUkRfMC4wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMA" });
            await Client.Products.ListAsync(pageSize: 1);
            await Harness.ClearLogAsync();
            await Client.Products.ListAsync(pageSize: 1);
            Assert.Equal("U0hBUkRfMC4wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMA", (await Harness.LogAsync())[0].GetString("consistencyToken"), "the next request's Consistency-Token");
        }

        private static async Task Webhooks()
        {
            var webhook = await Client.Webhooks.CreateAsync(new { url = Harness.Env("WAREHOUSE_WEBHOOK_URL"), events = new[] { "product.created" } });
            await Client.Webhooks.TestAsync(webhook.GetString("id"));
            var deliveries = (List<object>)await Harness.ProxyAsync("GET", "webhooks?type=webhook.test&wait=30");
            Assert.True(deliveries.Count > 0, "no webhook delivery arrived within 30 s");
            var delivery = (JsonObject)deliveries[0];
            var body = delivery.GetString("body");
            var headers = delivery.GetObject("headers").ToDictionary(h => h.Key, h => (string)h.Value);
            var secret = webhook.GetString("secret");

            Assert.Equal("webhook.test", Webhook.Verify(secret, body, headers).GetString("type"), "event type");
            Assert.Throws<WebhookVerificationException>(() => Webhook.Verify(secret, body.Replace("webhook.test", "webhook.fake"), headers));
            var stale = new Dictionary<string, string>(headers) { ["webhook-timestamp"] = (DateTimeOffset.UtcNow.ToUnixTimeSeconds() - 600).ToString() };
            Assert.Throws<WebhookVerificationException>(() => Webhook.Verify(secret, body, stale));
        }

        private static async Task RateLimited()
        {
            var key = Harness.Env("WAREHOUSE_STARTER_API_KEY");
            WarehouseApiException refused = null;
            using (var impatient = new WarehouseClient(new WarehouseClientOptions { BaseUrl = Harness.Env("WAREHOUSE_BASE_URL"), ApiKey = key, MaxRetries = 0 }))
            {
                for (var i = 0; i < 200 && refused == null; i++)
                {
                    try
                    {
                        await impatient.Products.ListAsync(pageSize: 1);
                    }
                    catch (WarehouseApiException error) when (error.StatusCode == 429)
                    {
                        refused = error;
                    }
                }
            }
            Assert.True(refused != null, "the Starter tenant was never refused");
            Assert.Equal("RATE_LIMITED", refused.Code, "code");
            Assert.True(refused.RetryAfter > TimeSpan.Zero, "the 429 says how long to wait");

            using (var patient = new WarehouseClient(new WarehouseClientOptions { BaseUrl = Harness.Env("WAREHOUSE_BASE_URL"), ApiKey = key }))
            {
                var watch = Stopwatch.StartNew();
                var page = await patient.Products.ListAsync(pageSize: 1);
                Assert.Equal(1, page.Page, "page");
                Assert.True(watch.Elapsed >= refused.RetryAfter.Value - TimeSpan.FromSeconds(1), "waited Retry-After (" + watch.Elapsed + ")");
            }
        }
    }
}
