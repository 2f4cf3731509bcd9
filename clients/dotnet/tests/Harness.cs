using System;
using System.Collections.Generic;
using System.Net.Http;
using System.Text;
using System.Threading.Tasks;

namespace Warehouse.Api.Tests
{
    /// <summary>What the harness (clients/harness/run.mjs) hands the tests: URLs and credentials, and the proxy's controls.</summary>
    public static class Harness
    {
        private static readonly HttpClient Http = new HttpClient { Timeout = TimeSpan.FromSeconds(60) };
        private static readonly Random Random = new Random();

        public static string Env(string name)
        {
            var value = Environment.GetEnvironmentVariable(name);
            if (string.IsNullOrEmpty(value)) throw new InvalidOperationException(name + " is not set: run the client tests with npm run test:clients");
            return value;
        }

        public static string Unique()
        {
            return (DateTimeOffset.UtcNow.ToUnixTimeMilliseconds().ToString("x") + Random.Next(0x10000).ToString("x4")).ToUpperInvariant();
        }

        /// <summary>Calls the proxy's controls (see clients/harness/proxy.mjs).</summary>
        public static async Task<object> ProxyAsync(string method, string path, object body = null)
        {
            using (var request = new HttpRequestMessage(new HttpMethod(method), Env("WAREHOUSE_BASE_URL") + "/__harness/" + path))
            {
                if (body != null) request.Content = new StringContent(Json.Serialize(body), Encoding.UTF8, "application/json");
                using (var response = await Http.SendAsync(request))
                {
                    return Json.Parse(await response.Content.ReadAsStringAsync());
                }
            }
        }

        public static async Task<List<JsonObject>> LogAsync()
        {
            var entries = (List<object>)await ProxyAsync("GET", "log");
            return entries.ConvertAll(entry => (JsonObject)entry);
        }

        public static Task ClearLogAsync()
        {
            return ProxyAsync("DELETE", "log");
        }
    }
}
