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

        /// <summary>Answers the next <paramref name="times"/> requests whose <c>METHOD /path</c> contains <paramref name="match"/> with <paramref name="status"/> (or, with <paramref name="hang"/>, never).</summary>
        public static Task FaultAsync(string match, int status = 500, int times = 1, int? retryAfter = null, bool hang = false)
        {
            var fault = new Dictionary<string, object> { { "match", match }, { "status", status }, { "times", times }, { "hang", hang } };
            if (retryAfter != null) fault["retryAfter"] = retryAfter.Value;
            return ProxyAsync("POST", "fault", fault);
        }

        /// <summary>How many requests matched the fault (answered by it, or forwarded after it ran out).</summary>
        public static async Task<long> FaultSeenAsync(string match)
        {
            return ((JsonObject)await ProxyAsync("GET", "fault?match=" + Uri.EscapeDataString(match))).GetInt64("seen");
        }

        public static Task ClearLogAsync()
        {
            return ProxyAsync("DELETE", "log");
        }
    }
}
