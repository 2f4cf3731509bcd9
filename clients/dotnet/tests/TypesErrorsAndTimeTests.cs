using System;
using System.Diagnostics;
using System.Text.RegularExpressions;
using System.Threading;
using System.Threading.Tasks;
using Warehouse.Api.Models;

namespace Warehouse.Api.Tests
{
    /// <summary>
    /// Typed models, the exception hierarchy, the call's deadline, Retry-After's cap, which 500s are retried,
    /// cancellation and the User-Agent: against the live API, with the harness proxy as the local test server of the faults.
    /// </summary>
    public static class TypesErrorsAndTimeTests
    {
        private static WarehouseClient NewClient(Action<WarehouseClientOptions> configure = null)
        {
            var options = new WarehouseClientOptions { BaseUrl = Harness.Env("WAREHOUSE_BASE_URL"), ApiKey = Harness.Env("WAREHOUSE_API_KEY") };
            if (configure != null) configure(options);
            return new WarehouseClient(options);
        }

        private static readonly WarehouseClient Client = NewClient();

        public static readonly Test[] All =
        {
            new Test("returns a typed product and keeps what a newer server adds", TypedProduct),
            new Test("throws each error as its own subclass, with everything in its string form", Errors),
            new Test("retries a safe 500 and not an unsafe one", Retries500),
            new Test("ends a call stuck behind a long Retry-After at its deadline, at once", Deadline),
            new Test("is cancelled by its CancellationToken, and one deadline covers every attempt", Cancellation),
            new Test("sends its User-Agent", UserAgent),
        };

        private static Task<Product> NewProductAsync()
        {
            return Client.Products.CreateAsync(new CreateProductRequest { Sku = "TY-" + Harness.Unique(), Name = "Typed", Price = 2.5m });
        }

        private static async Task TypedProduct()
        {
            var product = await NewProductAsync();
            Assert.Equal(ProductStatus.Active, product.Status, "status");
            Assert.Equal(2.5m, product.Price, "price");
            Assert.Equal(0L, product.ReorderPoint, "reorder point");

            var json = product.ToJson();
            json["status"] = "Archived";
            json["carbonFootprint"] = new JsonObject { { "kg", 1.2m } };
            var newer = Product.FromJson((JsonObject)Json.Parse(json.ToString()));
            Assert.Equal(null, newer.Status, "an enum value this version does not know reads null");
            Assert.Equal("Archived", newer.AdditionalProperties["status"], "and is kept");
            Assert.Equal(json.ToString(), newer.ToJson().ToString(), "written back as it came");
        }

        private static async Task Errors()
        {
            await Assert.ThrowsAsync<NotFoundException>(() => Client.Products.GetAsync(Guid.NewGuid().ToString()));
            var invalid = await Assert.ThrowsAsync<ValidationException>(() => Client.Products.CreateAsync(new CreateProductRequest { Sku = " ", Name = "" }));
            var text = invalid.ToString();
            Assert.True(text.StartsWith("Warehouse.Api.ValidationException: 400 VALIDATION_FAILED: Validation failed [", StringComparison.Ordinal), text);
            Assert.True(text.Contains("sku: SKU is required") && text.Contains("(request id " + invalid.RequestId + ")"), text);
            using (var stranger = NewClient(o => o.ApiKey = "wms_live_not_a_real_key"))
                await Assert.ThrowsAsync<AuthenticationException>(() => stranger.Products.ListAsync());
            var reader = await Client.ApiKeys.CreateAsync(new CreateApiKeyRequest { Name = "reader-" + Harness.Unique(), Scopes = new[] { Scope.ReadProducts } });
            using (var readOnly = NewClient(o => o.ApiKey = reader.Key))
                await Assert.ThrowsAsync<PermissionDeniedException>(() => readOnly.Products.CreateAsync(new CreateProductRequest { Sku = "NO-" + Harness.Unique(), Name = "Refused" }));
            var taken = await NewProductAsync();
            await Assert.ThrowsAsync<ConflictException>(() => Client.Products.CreateAsync(new CreateProductRequest { Sku = taken.Sku, Name = "Twice" }));
            using (var nowhere = NewClient(o => { o.BaseUrl = "http://127.0.0.1:9"; o.MaxRetries = 0; }))
            {
                var unreachable = await Assert.ThrowsAsync<ApiConnectionException>(() => nowhere.Products.ListAsync());
                Assert.True(!(unreachable is ApiTimeoutException) && unreachable is WarehouseApiException, "a connection error, not a timeout");
            }
        }

        private static async Task Retries500()
        {
            var product = await NewProductAsync();
            var read = "GET /api/v1/products/" + product.Id;
            await Harness.FaultAsync(read, 500);
            Assert.Equal(product.Id, (await Client.Products.GetAsync(product.Id)).Id, "the retried read");
            Assert.Equal(2L, await Harness.FaultSeenAsync(read), "attempts of the read");

            // A PATCH carries an Idempotency-Key, so it is retried too.
            var patch = "PATCH /api/v1/products/" + product.Id;
            await Harness.FaultAsync(patch, 500);
            Assert.Equal("Patched once", (await Client.Products.PatchAsync(product.Id, new UpdateProductRequest { Name = "Patched once" })).Name, "the retried patch");
            Assert.Equal(2L, await Harness.FaultSeenAsync(patch), "attempts of the patch");

            // A login the server cannot de-duplicate is not repeated.
            var login = "POST /api/v1/auth/login";
            await Harness.FaultAsync(login, 500);
            var credentials = new LoginRequest { Email = Harness.Env("WAREHOUSE_EMAIL"), Password = Harness.Env("WAREHOUSE_PASSWORD") };
            await Assert.ThrowsAsync<ServerException>(() => Client.Auth.LoginAsync(credentials));
            Assert.Equal(1L, await Harness.FaultSeenAsync(login), "attempts of the login");
        }

        private static async Task Deadline()
        {
            var product = await NewProductAsync();
            var read = "GET /api/v1/products/" + product.Id;
            await Harness.FaultAsync(read, 429, 10, 30);
            var watch = Stopwatch.StartNew();
            using (var impatient = NewClient(o => o.Timeout = TimeSpan.FromSeconds(3)))
            {
                var limited = await Assert.ThrowsAsync<RateLimitException>(() => impatient.Products.GetAsync(product.Id));
                Assert.Equal(TimeSpan.FromSeconds(30), limited.RetryAfter, "Retry-After");
            }
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(3), "surfaced at once (" + watch.Elapsed + ")");
            Assert.Equal(1L, await Harness.FaultSeenAsync(read), "attempts");

            // Within the deadline but beyond the cap: surfaced at once too.
            await Harness.FaultAsync(read, 429, 10, 10);
            watch.Restart();
            using (var capped = NewClient(o => o.MaxRetryAfter = TimeSpan.FromSeconds(5)))
                await Assert.ThrowsAsync<RateLimitException>(() => capped.Products.GetAsync(product.Id));
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(3), "surfaced at once (" + watch.Elapsed + ")");

            // A short one is waited out.
            await Harness.FaultAsync(read, 429, 1, 1);
            watch.Restart();
            Assert.Equal(product.Id, (await Client.Products.GetAsync(product.Id)).Id, "after the wait");
            Assert.True(watch.Elapsed >= TimeSpan.FromSeconds(1), "waited Retry-After (" + watch.Elapsed + ")");
        }

        private static async Task Cancellation()
        {
            var product = await NewProductAsync();
            var read = "GET /api/v1/products/" + product.Id;
            await Harness.FaultAsync(read, times: 10, hang: true);
            var watch = Stopwatch.StartNew();
            using (var cancel = new CancellationTokenSource(TimeSpan.FromMilliseconds(500)))
            {
                try
                {
                    await Client.Products.GetAsync(product.Id, cancellationToken: cancel.Token);
                    throw new AssertionException("the call was not cancelled");
                }
                catch (OperationCanceledException)
                {
                }
            }
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(2), "cancelled promptly (" + watch.Elapsed + ")");

            await Harness.FaultAsync(read, times: 10, hang: true);
            watch.Restart();
            using (var patient = NewClient(o => { o.AttemptTimeout = TimeSpan.FromMilliseconds(500); o.MaxRetries = 10; o.Timeout = TimeSpan.FromSeconds(2.5); }))
                await Assert.ThrowsAsync<ApiTimeoutException>(() => patient.Products.GetAsync(product.Id));
            Assert.True(watch.Elapsed < TimeSpan.FromSeconds(3.5), "ended at the deadline (" + watch.Elapsed + ")");
            Assert.True(await Harness.FaultSeenAsync(read) >= 2, "short attempts were retried");
        }

        private static async Task UserAgent()
        {
            await Harness.ClearLogAsync();
            await Client.Health.GetAsync();
            var agent = (await Harness.LogAsync())[0].GetString("userAgent");
            Assert.True(Regex.IsMatch(agent, "^warehouse-api-csharp/" + Regex.Escape(ClientVersion.Value) + @" \(.+\)$"), agent);
        }
    }
}
