using System;
using System.Net.Http;

namespace Warehouse.Api
{
    /// <summary>How the client authenticates and how patient it is.</summary>
    public sealed class WarehouseClientOptions
    {
        /// <summary>The API's origin, e.g. <c>https://wms.example.com</c> (a trailing <c>/api/v1</c> is accepted too).</summary>
        public string BaseUrl { get; set; }
        public string ApiKey { get; set; }
        public string Email { get; set; }
        public string Password { get; set; }
        /// <summary>The tenant a logged-in user acts on (sent as <c>X-Tenant-Id</c>).</summary>
        public string TenantId { get; set; }
        /// <summary>The platform operator token, for <c>client.Platform</c> only.</summary>
        public string PlatformToken { get; set; }
        /// <summary>
        /// One deadline per call, covering every attempt and every wait between them (default 60 s): when it passes the
        /// call fails with <see cref="ApiTimeoutException"/> (or the last error, when waiting longer would pass it). A
        /// call's own <c>CancellationToken</c> cancels it sooner.
        /// </summary>
        public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(60);
        /// <summary>Per attempt (default 30 s; never past the call's deadline).</summary>
        public TimeSpan AttemptTimeout { get; set; } = TimeSpan.FromSeconds(30);
        /// <summary>Retries after the first attempt (default 3).</summary>
        public int MaxRetries { get; set; } = 3;
        /// <summary>The longest <c>Retry-After</c> a call waits out (default 60 s); a longer one, or one ending past the deadline, throws <see cref="RateLimitException"/> at once.</summary>
        public TimeSpan MaxRetryAfter { get; set; } = TimeSpan.FromSeconds(60);
        /// <summary>Refresh the access token this long before it expires (default 60 s).</summary>
        public TimeSpan RefreshBeforeExpiry { get; set; } = TimeSpan.FromSeconds(60);
        /// <summary>Your own HttpClient (e.g. from IHttpClientFactory); by default the client creates and owns one.</summary>
        public HttpClient HttpClient { get; set; }
    }

    /// <summary>
    /// The Warehouse Management API: one property per resource group (<c>Products</c>, <c>Inventory</c>,
    /// <c>Orders</c>...), one method per operation taking its typed request and returning its typed model (a
    /// <c>ResultPage&lt;T&gt;</c> for lists), or throwing a <see cref="WarehouseApiException"/> subclass.
    /// </summary>
    public sealed partial class WarehouseClient : IDisposable
    {
        private readonly Transport _transport;

        public WarehouseClient(WarehouseClientOptions options)
        {
            _transport = new Transport(options);
            InitializeResources(_transport);
        }

        public void Dispose()
        {
            _transport.Dispose();
        }
    }
}
