using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Warehouse.Api.Models;

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
            new Test("downloads a package label as its bytes", DownloadsALabel),
            new Test("uploads a file, imports it as a job and waits; reads its error report and an export", ImportsAFile),
            new Test("walks a list across three pages with the iterator", WalksThreePages),
            new Test("throws a 404 as WarehouseApiException with the request id", NotFound),
            new Test("throws a 400 with one message per invalid field", ValidationFailed),
            new Test("retries a create after a dropped connection and creates it exactly once", DroppedConnection),
            new Test("retries a status change after a dropped connection and applies it once", DroppedStatusChange),
            new Test("logs in, refreshes before expiry and rotates the refresh token", LoginAndRefresh),
            new Test("holds stock, lists the hold and releases it", Holds),
            new Test("follows the events feed from a stored cursor: every later event once", EventsFeed),
            new Test("reads stock as it was at an instant (asOf)", StockAsOf),
            new Test("carries the Consistency-Token of the last response into the next request", ConsistencyToken),
            new Test("drops a Consistency-Token sealed under a rotated key and heals in one call", RotatedConsistencyToken),
            new Test("verifies a webhook signature and refuses a tampered one", Webhooks),
            new Test("reads an order's event from a verified webhook delivery and from the feed, typed per event", TypedEvents),
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
            Assert.Equal("{\"sku\":\"X\",\"name\":\"Y\",\"status\":\"Inactive\",\"colour\":\"red\"}",
                Json.Serialize(new CreateProductRequest { Sku = "X", Name = "Y", Status = ProductStatus.Inactive, AdditionalProperties = { { "colour", "red" } } }), "a typed request, optional nulls left out");
            Assert.Throws<FormatException>(() => Json.Parse("{\"a\":1,}"));
            return Task.CompletedTask;
        }

        private static async Task SellsAndShips()
        {
            var u = Harness.Unique();
            var warehouse = await Client.Warehouses.CreateAsync(new WarehouseRequest { Code = "WH-" + u, Name = "Main" });
            var location = await Client.Locations.CreateAsync(new CreateLocationRequest { WarehouseId = warehouse.Id, Code = "A-" + u, Name = "Aisle A", Type = LocationType.Bin });
            Product product = await Client.Products.CreateAsync(new CreateProductRequest { Sku = "CS-" + u, Name = "Widget", Price = 19.99m });
            Assert.Equal("CS-" + u, product.Sku, "sku");
            Assert.Equal(19.99m, product.Price, "price");
            Assert.Equal(ProductStatus.Active, product.Status, "status");

            var adjusted = await Client.Inventory.AdjustAsync(new AdjustmentRequest { ProductId = product.Id, LocationId = location.Id, Quantity = 10, Reason = "received" });
            Assert.Equal(10L, adjusted.StockLevel.OnHand, "onHand after the adjustment");

            var order = await Client.Orders.CreateSalesAsync(new CreateSalesOrderRequest
            {
                CustomerId = Guid.NewGuid().ToString(),
                Lines = new List<CreateSalesOrderRequestLinesItem> { new CreateSalesOrderRequestLinesItem { ProductId = product.Id, Quantity = 3, Price = 19.99m } },
                ShippingAddress = new ShippingAddress { Street = "1 Main St", City = "Springfield", Zip = "12345" },
            });
            Assert.Equal(OrderStatus.Pending, order.Status, "order status");
            var reserved = (await Client.Inventory.ListStockAsync(productId: product.Id)).Items[0];
            Assert.Equal("10/3/7", reserved.OnHand + "/" + reserved.Reserved + "/" + reserved.Available, "reserved stock");

            var shipped = await Client.Orders.UpdateStatusAsync(order.Id, new UpdateOrderStatusRequest { Status = OrderStatus.Shipped, TrackingNumber = "1Z999" });
            Assert.Equal("Shipped 1Z999", shipped.Status + " " + shipped.TrackingNumber, "shipped order");
            var stock = (await Client.Inventory.ListStockAsync(productId: product.Id)).Items[0];
            Assert.Equal("7/0/7", stock.OnHand + "/" + stock.Reserved + "/" + stock.Available, "shipped stock");
        }

        private static async Task DownloadsALabel()
        {
            var u = Harness.Unique();
            var warehouse = await Client.Warehouses.CreateAsync(new WarehouseRequest { Code = "WL-" + u, Name = "Labels" });
            var location = await Client.Locations.CreateAsync(new CreateLocationRequest { WarehouseId = warehouse.Id, Code = "L-" + u, Name = "Bin", Type = LocationType.Bin });
            var product = await Client.Products.CreateAsync(new CreateProductRequest { Sku = "LB-" + u, Name = "Labelled" });
            await Client.Inventory.AdjustAsync(new AdjustmentRequest { ProductId = product.Id, LocationId = location.Id, Quantity = 5, Reason = "received" });
            var order = await Client.Orders.CreateSalesAsync(new CreateSalesOrderRequest
            {
                CustomerId = Guid.NewGuid().ToString(),
                WarehouseId = warehouse.Id,
                Lines = new List<CreateSalesOrderRequestLinesItem> { new CreateSalesOrderRequestLinesItem { ProductId = product.Id, Quantity = 2, Price = 1m } },
                ShippingAddress = new ShippingAddress { Street = "1 Main St", City = "Springfield", Zip = "12345" },
            });
            await Client.Orders.UpdateStatusAsync(order.Id, new UpdateOrderStatusRequest { Status = OrderStatus.Confirmed });
            var shipment = await Client.Orders.CreateShipmentAsync(order.Id, new CreateShipmentRequest
            {
                Packages = new List<CreateShipmentRequestPackagesItem>
                {
                    new CreateShipmentRequestPackagesItem
                    {
                        Weight = new Weight { Value = 1.5m, Unit = Unit.Kg },
                        Lines = new List<CreateShipmentRequestPackagesItemLinesItem> { new CreateShipmentRequestPackagesItemLinesItem { OrderLineId = order.Lines[0].Id, Quantity = 2 } },
                    },
                },
            });
            var package = shipment.Packages[0];
            await Client.Shipments.LabelAsync(shipment.Id, new LabelShipmentRequest
            {
                TrackingNumbers = new List<LabelShipmentRequestTrackingNumbersItem> { new LabelShipmentRequestTrackingNumbersItem { PackageId = package.Id, TrackingNumber = "1Z" + u } },
            });
            byte[] label = await Client.Shipments.GetLabelAsync(shipment.Id, package.Id);
            var text = System.Text.Encoding.UTF8.GetString(label);
            Assert.True(text.StartsWith("^XA") && text.TrimEnd().EndsWith("^XZ"), "a ZPL label");
            Assert.True(text.Contains("^FD(00)" + package.Sscc + "^FS"), "the SSCC as GS1-128");
            Assert.True(text.Contains("^FD1Z" + u + "^FS"), "the tracking number");
        }

        private static async Task ImportsAFile()
        {
            var u = Harness.Unique();
            var warehouse = await Client.Warehouses.CreateAsync(new WarehouseRequest { Code = "WJ-" + u, Name = "Jobs" });
            var location = await Client.Locations.CreateAsync(new CreateLocationRequest { WarehouseId = warehouse.Id, Code = "J-" + u, Name = "J", Type = LocationType.Bin });
            var product = await Client.Products.CreateAsync(new CreateProductRequest { Sku = "CSJ-" + u, Name = "Imported" });
            var csv = "sku,locationCode,quantity,reason\n" + product.Sku + ",J-" + u + ",5,received\nNOPE-" + u + ",J-" + u + ",1,received\n";
            var job = await Client.ImportFileAsync(JobType.StockImport, csv, pollInterval: TimeSpan.FromMilliseconds(200));
            Assert.Equal("Succeeded 2 1", job.Status + " " + job.Processed + " " + job.Failed, "the import job");
            Assert.Equal(3L, job.Errors[0].Line, "the failing row's line");
            Assert.Equal("sku: no product has SKU NOPE-" + u, job.Errors[0].Errors[0], "the failing row's error");
            Assert.Equal("line,errors\r\n3,sku: no product has SKU NOPE-" + u + "\r\n", await Client.JobResultAsync(job.Id), "the error report");
            Assert.Equal(5L, (await Client.Inventory.ListStockAsync(productId: product.Id)).Items[0].OnHand, "imported stock");
            var exported = await Client.Jobs.CreateAsync(new CreateJobRequest { Type = JobType.StockExport });
            var done = await Client.WaitForJobAsync(exported.Id, TimeSpan.FromMilliseconds(200));
            Assert.Equal(JobStatus.Succeeded, done.Status, "the export job");
            var file = await Client.JobResultAsync(done.Id);
            Assert.True(file.Contains(product.Sku + ",WJ-" + u + ",J-" + u + ",,5,0,5\r\n"), "the export holds the level");
        }

        private static async Task WalksThreePages()
        {
            var category = "cat-" + Harness.Unique();
            for (var i = 0; i < 5; i++) await Client.Products.CreateAsync(new CreateProductRequest { Sku = "PG-" + category + "-" + i, Name = "Paged " + i, Category = category });
            await Harness.ClearLogAsync();
            var skus = new List<string>();
            var items = Client.Products.ListAllAsync(pageSize: 2, category: category, sort: "sku");
            while (await items.MoveNextAsync()) skus.Add(items.Current.Sku);
            Assert.Equal(string.Join(",", Enumerable.Range(0, 5).Select(i => "PG-" + category + "-" + i)), string.Join(",", skus), "skus");
            var pages = (await Harness.LogAsync()).Select(e => e.GetString("path")).Where(p => p.StartsWith("/api/v1/products?", StringComparison.Ordinal))
                .Select(p => p.Split('?')[1].Split('&').First(pair => pair.StartsWith("page=", StringComparison.Ordinal)));
            Assert.Equal("page=1,page=2,page=3", string.Join(",", pages), "pages fetched");
        }

        private static async Task NotFound()
        {
            await Harness.ClearLogAsync();
            var error = await Assert.ThrowsAsync<NotFoundException>(() => Client.Products.GetAsync(Guid.NewGuid().ToString()));
            Assert.Equal("404 NOT_FOUND Product not found", error.StatusCode + " " + error.Code + " " + error.Message, "error");
            Assert.True(!string.IsNullOrEmpty(error.RequestId), "the error carries the request id");
            Assert.Equal((await Harness.LogAsync())[0].GetString("requestId"), error.RequestId, "request id");
        }

        private static async Task ValidationFailed()
        {
            var error = await Assert.ThrowsAsync<ValidationException>(() => Client.Products.CreateAsync(new CreateProductRequest { Sku = " ", Name = "" }));
            Assert.Equal("400 VALIDATION_FAILED", error.StatusCode + " " + error.Code, "error");
            Assert.True(error.Errors.Contains("sku: SKU is required") && error.Errors.Contains("name: Name is required"),
                "one message per field: " + string.Join("; ", error.Errors));
        }

        private static async Task DroppedConnection()
        {
            var sku = "DROP-" + Harness.Unique();
            await Harness.ProxyAsync("POST", "drop", new { match = sku });
            var product = await Client.Products.CreateAsync(new CreateProductRequest { Sku = sku, Name = "Dropped once" });
            Assert.Equal(sku, product.Sku, "sku");

            var requests = ((JsonObject)await Harness.ProxyAsync("GET", "drop?match=" + Uri.EscapeDataString(sku))).GetArray("requests").Cast<JsonObject>().ToList();
            Assert.Equal("True/False,False/True", string.Join(",", requests.Select(r => r.GetBoolean("dropped") + "/" + r.GetBoolean("replayed"))), "dropped, then replayed");
            Assert.True(!string.IsNullOrEmpty(requests[0].GetString("idempotencyKey")), "the create carried an Idempotency-Key");
            Assert.Equal(requests[0].GetString("idempotencyKey"), requests[1].GetString("idempotencyKey"), "the retry's key");
            Assert.Equal(1L, (await Client.Products.ListAsync(search: sku)).TotalCount, "products with that sku");
        }

        private static async Task DroppedStatusChange()
        {
            // A PATCH carries an Idempotency-Key like a create: the server replays the first answer to the retry, where
            // applying "shipped" again would be refused (409: the order is already shipped).
            var product = (await StockedProductAsync(5)).Item1;
            var order = await Client.Orders.CreateSalesAsync(new CreateSalesOrderRequest
            {
                CustomerId = Guid.NewGuid().ToString(),
                Lines = new List<CreateSalesOrderRequestLinesItem> { new CreateSalesOrderRequestLinesItem { ProductId = product.Id, Quantity = 2, Price = 1m } },
                ShippingAddress = new ShippingAddress { Street = "1 Main St", City = "Springfield", Zip = "12345" },
            });
            var tracking = "1Z" + Harness.Unique();
            await Harness.ProxyAsync("POST", "drop", new { match = tracking });
            var shipped = await Client.Orders.UpdateStatusAsync(order.Id, new UpdateOrderStatusRequest { Status = OrderStatus.Shipped, TrackingNumber = tracking });
            Assert.Equal("Shipped " + tracking, shipped.Status + " " + shipped.TrackingNumber, "shipped order");

            var requests = ((JsonObject)await Harness.ProxyAsync("GET", "drop?match=" + Uri.EscapeDataString(tracking))).GetArray("requests").Cast<JsonObject>().ToList();
            Assert.Equal("True/False/200,False/True/200", string.Join(",", requests.Select(r => r.GetBoolean("dropped") + "/" + r.GetBoolean("replayed") + "/" + r.GetInt64("status"))), "dropped, then replayed");
            Assert.True(!string.IsNullOrEmpty(requests[0].GetString("idempotencyKey")), "the status change carried an Idempotency-Key");
            Assert.Equal(requests[0].GetString("idempotencyKey"), requests[1].GetString("idempotencyKey"), "the retry's key");
            Assert.Equal(3L, (await Client.Inventory.ListStockAsync(productId: product.Id)).Items[0].OnHand, "on hand after shipping");
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
                Assert.Equal("user", (await user.Auth.MeAsync()).Type, "principal");
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
        private static async Task<Tuple<Product, Location, AdjustmentResult>> StockedProductAsync(int quantity)
        {
            var u = Harness.Unique();
            var warehouse = await Client.Warehouses.CreateAsync(new WarehouseRequest { Code = "WH-" + u, Name = "Feed" });
            var location = await Client.Locations.CreateAsync(new CreateLocationRequest { WarehouseId = warehouse.Id, Code = "B-" + u, Name = "Bin", Type = LocationType.Bin });
            var product = await Client.Products.CreateAsync(new CreateProductRequest { Sku = "ST-" + u, Name = "Stocked" });
            var adjusted = await Client.Inventory.AdjustAsync(new AdjustmentRequest { ProductId = product.Id, LocationId = location.Id, Quantity = quantity, Reason = "received" });
            return Tuple.Create(product, location, adjusted);
        }

        private static async Task Holds()
        {
            var stocked = await StockedProductAsync(10);
            var productId = stocked.Item1.Id;
            var reference = "cart-" + stocked.Item1.Sku;
            var hold = await Client.Inventory.CreateHoldAsync(new CreateHoldRequest
            {
                ProductId = productId,
                Quantity = 4,
                LocationId = stocked.Item2.Id,
                ExpiresAt = DateTime.UtcNow.AddHours(1).ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", System.Globalization.CultureInfo.InvariantCulture),
                Reference = reference,
            });
            Assert.Equal("4 Active", hold.Quantity + " " + hold.Status, "the hold");
            var held = (await Client.Inventory.ListStockAsync(productId: productId)).Items[0];
            Assert.Equal("10/6", held.OnHand + "/" + held.Available, "stock while held");
            var listed = (await Client.Inventory.ListHoldsAsync(reference: reference)).Items.Select(h => h.Id);
            Assert.Equal(hold.Id, string.Join(",", listed), "holds listed by reference");

            var released = await Client.Inventory.ReleaseHoldAsync(hold.Id);
            Assert.Equal(HoldStatus.Released, released.Status, "released hold");
            var freed = (await Client.Inventory.ListStockAsync(productId: productId)).Items[0];
            Assert.Equal("10/10", freed.OnHand + "/" + freed.Available, "stock after the release");
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
                await Client.Inventory.AdjustAsync(new AdjustmentRequest { ProductId = stocked.Item1.Id, LocationId = stocked.Item2.Id, Quantity = 1, Reason = "received" });
            // Pages of 2 events; the reader stops after the third event (inside the second page) and restarts.
            var first = Client.Events.ListAllAsync(after: stored, type: type, limit: 2);
            var seen = new List<string>();
            while (seen.Count < 3 && await first.MoveNextAsync()) seen.Add(first.Current.Id);
            var resumed = Client.Events.ListAllAsync(after: first.Cursor, type: type, limit: 2);
            seen.AddRange((await resumed.ToListAsync()).Select(e => e.Id));

            Assert.Equal(5, seen.Count, "events after the stored cursor");
            Assert.Equal(5, seen.Distinct().Count(), "distinct events");
            Assert.Equal(0, (await Client.Events.ListAllAsync(after: resumed.Cursor, type: type).ToListAsync()).Count, "events after the last cursor");
        }

        private static async Task StockAsOf()
        {
            var stocked = await StockedProductAsync(10);
            var productId = stocked.Item1.Id;
            await Client.Inventory.AdjustAsync(new AdjustmentRequest { ProductId = productId, LocationId = stocked.Item2.Id, Quantity = 5, Reason = "received" });
            var asOf = stocked.Item3.Movement.CreatedAt;
            var then = (await Client.Inventory.ListStockAsync(productId: productId, asOf: asOf)).Items;
            Assert.Equal(productId + " 10", string.Join(",", then.Select(l => l.ProductId + " " + l.OnHand)), "stock as of the first adjustment");
            Assert.Equal(15L, (await Client.Inventory.ListStockAsync(productId: productId)).Items[0].OnHand, "stock now");
        }

        private static async Task ConsistencyToken()
        {
            await Harness.ProxyAsync("POST", "consistency-token", new { value = "U0hBUkRfMC4wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMA" });
            await Client.Products.ListAsync(pageSize: 1);
            await Harness.ClearLogAsync();
            await Client.Products.ListAsync(pageSize: 1);
            Assert.Equal("U0hBUkRfMC4wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMA", (await Harness.LogAsync())[0].GetString("consistencyToken"), "the next request's Consistency-Token");
        }

        private static async Task RotatedConsistencyToken()
        {
            // The harness seals this token with the server's code under the key it had before WEBHOOK_SECRET_KEY rotated.
            var rotated = Harness.Env("WAREHOUSE_ROTATED_CONSISTENCY_TOKEN");
            await Harness.ProxyAsync("POST", "consistency-token", new { value = rotated });
            await Client.Products.ListAsync(pageSize: 1);
            await Harness.ClearLogAsync();
            var page = await Client.Products.ListAsync(pageSize: 1);
            Assert.True(page.Items.Count > 0, "the healed call's products");
            var log = await Harness.LogAsync();
            Assert.Equal(rotated, log[0].GetString("consistencyToken"), "the refused request's token");
            Assert.Equal(400, log[0].GetInt32("status"), "the refused request's status");
            Assert.Equal(null, log[1].GetString("consistencyToken"), "the retry's token");
            Assert.Equal(200, log[1].GetInt32("status"), "the retry's status");
            // The next call carries the token the healed answer sealed under the current key.
            await Harness.ClearLogAsync();
            await Client.Products.ListAsync(pageSize: 1);
            var next = (await Harness.LogAsync())[0];
            Assert.Equal(200, next.GetInt32("status"), "the next request's status");
            Assert.True(next.GetString("consistencyToken") != null && next.GetString("consistencyToken") != rotated, "the next request carries a fresh token");
        }

        private static async Task Webhooks()
        {
            var webhook = await Client.Webhooks.CreateAsync(new CreateWebhookRequest { Url = Harness.Env("WAREHOUSE_WEBHOOK_URL"), Events = new List<WebhookEventName> { WebhookEventName.ProductCreated } });
            await Client.Webhooks.TestAsync(webhook.Id);
            var deliveries = (List<object>)await Harness.ProxyAsync("GET", "webhooks?type=webhook.test&wait=30");
            Assert.True(deliveries.Count > 0, "no webhook delivery arrived within 30 s");
            var delivery = (JsonObject)deliveries[0];
            var body = delivery.GetString("body");
            var headers = delivery.GetObject("headers").ToDictionary(h => h.Key, h => (string)h.Value);
            var secret = webhook.Secret;

            var verified = Webhook.Verify(secret, body, headers) as WebhookTestWebhookBody;
            Assert.True(verified != null, "a webhook.test delivery reads as WebhookTestWebhookBody");
            Assert.Equal(webhook.Id, verified.Data.WebhookId, "the test delivery's webhook");
            Assert.Throws<WebhookVerificationException>(() => Webhook.Verify(secret, body.Replace("webhook.test", "webhook.fake"), headers));
            var stale = new Dictionary<string, string>(headers) { ["webhook-timestamp"] = (DateTimeOffset.UtcNow.ToUnixTimeSeconds() - 600).ToString() };
            Assert.Throws<WebhookVerificationException>(() => Webhook.Verify(secret, body, stale));
        }

        private static async Task TypedEvents()
        {
            const string type = "order.created";
            var caughtUp = Client.Events.ListAllAsync(type: type);
            await caughtUp.ToListAsync();
            var webhook = await Client.Webhooks.CreateAsync(new CreateWebhookRequest { Url = Harness.Env("WAREHOUSE_WEBHOOK_URL"), Events = new List<WebhookEventName> { WebhookEventName.OrderCreated } });
            var stocked = await StockedProductAsync(5);
            var order = await Client.Orders.CreateSalesAsync(new CreateSalesOrderRequest
            {
                CustomerId = Guid.NewGuid().ToString(),
                Lines = new List<CreateSalesOrderRequestLinesItem> { new CreateSalesOrderRequestLinesItem { ProductId = stocked.Item1.Id, Quantity = 2, Price = 3m } },
                ShippingAddress = new ShippingAddress { Street = "1 Main St", City = "Springfield", Zip = "12345" },
            });

            var delivery = ((List<object>)await Harness.ProxyAsync("GET", "webhooks?type=order.created&wait=60")).Cast<JsonObject>()
                .FirstOrDefault(d => d.GetString("body").Contains(order.Id));
            Assert.True(delivery != null, "no order.created delivery of the order arrived within 60 s");
            var headers = delivery.GetObject("headers").ToDictionary(h => h.Key, h => (string)h.Value);
            var created = Webhook.Verify(webhook.Secret, delivery.GetString("body"), headers) as OrderCreatedWebhookBody;
            Assert.True(created != null, "an order.created delivery reads as OrderCreatedWebhookBody");
            Assert.Equal(order.Number, created.Data.Number, "the delivered order's number");
            Assert.Equal(2L, created.Data.Lines[0].Quantity, "the delivered order's quantity");

            var feed = Client.Events.ListAllAsync(after: caughtUp.Cursor, type: type);
            Assert.True(await feed.MoveNextAsync(), "the order's event in the feed");
            var item = feed.Current as OrderCreatedEvent;
            Assert.True(item != null, "an order.created item reads as OrderCreatedEvent");
            Assert.Equal(order.Number, item.Data.Number, "the feed's order number");
            Assert.Equal(headers["webhook-id"], item.Id, "the feed item is the delivered event");

            // A type newer than this client reads as UnknownEvent, every field kept.
            var newer = Event.FromJson((JsonObject)Json.Parse("{\"id\":\"e1\",\"type\":\"order.teleported\",\"timestamp\":\"2026-11-29T10:00:00Z\",\"data\":{\"to\":\"Mars\"}}"));
            Assert.True(newer is UnknownEvent, "an unknown type reads as UnknownEvent");
            Assert.Equal("order.teleported", newer.Type, "its type");
            Assert.Equal("Mars", ((JsonObject)newer.ToJson()["data"]).GetString("to"), "its data kept");
        }

        private static async Task RateLimited()
        {
            var key = Harness.Env("WAREHOUSE_STARTER_API_KEY");
            RateLimitException refused = null;
            using (var impatient = new WarehouseClient(new WarehouseClientOptions { BaseUrl = Harness.Env("WAREHOUSE_BASE_URL"), ApiKey = key, MaxRetries = 0 }))
            {
                for (var i = 0; i < 200 && refused == null; i++)
                {
                    try
                    {
                        await impatient.Products.ListAsync(pageSize: 1);
                    }
                    catch (RateLimitException error)
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
