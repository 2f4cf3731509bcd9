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
        /// <summary>Per attempt (default 30 s).</summary>
        public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(30);
        /// <summary>Retries after the first attempt (default 3).</summary>
        public int MaxRetries { get; set; } = 3;
        /// <summary>Refresh the access token this long before it expires (default 60 s).</summary>
        public TimeSpan RefreshBeforeExpiry { get; set; } = TimeSpan.FromSeconds(60);
        /// <summary>Your own HttpClient (e.g. from IHttpClientFactory); by default the client creates and owns one.</summary>
        public HttpClient HttpClient { get; set; }
    }

    /// <summary>
    /// The Warehouse Management API: one property per resource group (<c>Products</c>, <c>Inventory</c>,
    /// <c>Orders</c>...), one method per operation, each returning the envelope's <c>data</c> (a
    /// <see cref="ResultPage"/> for lists) or throwing <see cref="WarehouseApiException"/>.
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
