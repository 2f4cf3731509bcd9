using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Runtime.InteropServices;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Warehouse.Api
{
    /// <summary>An operation's verb and path, who may call it and whether a failed attempt may be repeated.</summary>
    internal sealed class Operation
    {
        public Operation(string id, string method, string path, string access, string retry)
        {
            Id = id;
            Method = method;
            Path = path;
            Access = access;
            Retry = retry;
        }

        public string Id { get; }
        public string Method { get; }
        public string Path { get; }
        public string Access { get; }  // public | credential | tenant | platform
        public string Retry { get; }   // safe | idempotency-key | refused-only
    }

    /// <summary>
    /// Sends every call: credentials, tenant, Idempotency-Key, Consistency-Token, the per-attempt timeout, and the
    /// retries (429 after Retry-After; 502/503/504 and network errors with backoff when a repeat is safe).
    /// </summary>
    internal sealed class Transport : IDisposable
    {
        // Answers that say the server failed or is unavailable: repeated only when repeating is safe.
        private static readonly HashSet<int> RetryableStatus = new HashSet<int> { 500, 502, 503, 504 };

        /// <summary><c>warehouse-api-csharp/1.0.0 (Mono 6.8.0.105)</c>: which client and runtime sent a request, for support.</summary>
        internal static readonly string UserAgent = "warehouse-api-csharp/" + ClientVersion.Value + " (" + RuntimeInformation.FrameworkDescription.Trim() + ")";
        [ThreadStatic] private static Random _random;

        private readonly WarehouseClientOptions _options;
        private readonly HttpClient _http;
        private readonly bool _ownsHttp;
        private readonly string _baseUrl;
        private readonly SemaphoreSlim _renewal = new SemaphoreSlim(1, 1);
        private volatile string _consistencyToken;
        private string _accessToken;
        private string _refreshToken;
        private DateTimeOffset _expiresAt = DateTimeOffset.MinValue;

        public Transport(WarehouseClientOptions options)
        {
            if (options == null) throw new ArgumentNullException(nameof(options));
            if (string.IsNullOrEmpty(options.BaseUrl)) throw new ArgumentException("BaseUrl is required", nameof(options));
            if (string.IsNullOrEmpty(options.ApiKey) && !UsesSession(options) && string.IsNullOrEmpty(options.PlatformToken))
            {
                throw new ArgumentException("WarehouseClient needs ApiKey, or Email and Password (and TenantId), or PlatformToken");
            }
            _options = options;
            var baseUrl = options.BaseUrl.TrimEnd('/');
            _baseUrl = baseUrl.EndsWith("/api/v1", StringComparison.Ordinal) ? baseUrl.Substring(0, baseUrl.Length - 7) : baseUrl;
            _ownsHttp = options.HttpClient == null;
            _http = options.HttpClient ?? new HttpClient { Timeout = System.Threading.Timeout.InfiniteTimeSpan };
        }

        private static bool UsesSession(WarehouseClientOptions options)
        {
            return string.IsNullOrEmpty(options.ApiKey) && !string.IsNullOrEmpty(options.Email) && !string.IsNullOrEmpty(options.Password);
        }

        public void Dispose()
        {
            if (_ownsHttp) _http.Dispose();
            _renewal.Dispose();
        }

        /// <summary>The envelope's <c>data</c>, as the JSON parser reads it.</summary>
        public async Task<object> DataAsync(Operation op, string[] path, IDictionary<string, object> query, object body,
            IDictionary<string, string> headers, string idempotencyKey, CancellationToken cancellationToken)
        {
            var text = Encoding.UTF8.GetString(await SendAsync(op, path, query, body, headers, idempotencyKey, "application/json", cancellationToken).ConfigureAwait(false));
            var envelope = text.Length == 0 ? null : Json.Parse(text) as JsonObject;
            object data = null;
            if (envelope != null) envelope.TryGetValue("data", out data);
            return data;
        }

        public async Task<ResultPage<T>> PageAsync<T>(Operation op, string[] path, IDictionary<string, object> query, object body,
            IDictionary<string, string> headers, string idempotencyKey, CancellationToken cancellationToken, Func<object, T> item)
        {
            var data = await DataAsync(op, path, query, body, headers, idempotencyKey, cancellationToken).ConfigureAwait(false);
            return new ResultPage<T>((JsonObject)data, item);
        }

        public async Task<string> TextAsync(Operation op, string[] path, IDictionary<string, object> query, object body,
            IDictionary<string, string> headers, string idempotencyKey, CancellationToken cancellationToken)
        {
            return Encoding.UTF8.GetString(await SendAsync(op, path, query, body, headers, idempotencyKey, "text/csv", cancellationToken).ConfigureAwait(false));
        }

        /// <summary>A file operation's answer (a label as PDF or ZPL) as its bytes; <c>accept</c> names the media types it may come as.</summary>
        public Task<byte[]> BytesAsync(Operation op, string[] path, IDictionary<string, object> query, object body,
            IDictionary<string, string> headers, string idempotencyKey, CancellationToken cancellationToken, string accept)
        {
            return SendAsync(op, path, query, body, headers, idempotencyKey, accept, cancellationToken);
        }

        /// <summary>Sends one operation, retrying as its retry class allows, and returns the response body.</summary>
        private async Task<byte[]> SendAsync(Operation op, string[] path, IDictionary<string, object> query, object body,
            IDictionary<string, string> headers, string idempotencyKey, string accept, CancellationToken cancellationToken)
        {
            var url = Url(op, path, query);
            string payload = null;
            var contentType = "application/json";
            if (body is string text)
            {
                payload = text;
                // A file body is CSV unless the call names its own type (an NDJSON upload).
                string named = null;
                contentType = headers != null && headers.TryGetValue("Content-Type", out named) && named != null ? named : "text/csv";
            }
            else if (body != null)
            {
                payload = Json.Serialize(body);
            }
            var key = op.Retry == "idempotency-key" ? (idempotencyKey ?? Guid.NewGuid().ToString()) : null;
            var deadline = DateTimeOffset.UtcNow + _options.Timeout;
            var reauthenticated = false;
            var tokenDropped = false;
            for (var attempt = 0; ;)
            {
                string sentToken = null;
                using (var request = new HttpRequestMessage(new HttpMethod(op.Method), url))
                {
                    request.Headers.TryAddWithoutValidation("Accept", accept);
                    request.Headers.TryAddWithoutValidation("User-Agent", UserAgent);
                    foreach (var header in await HeadersForAsync(op, cancellationToken).ConfigureAwait(false))
                    {
                        request.Headers.TryAddWithoutValidation(header.Key, header.Value);
                        if (header.Key == "Consistency-Token") sentToken = header.Value;
                    }
                    if (headers != null)
                    {
                        foreach (var header in headers.Where(h => h.Value != null && h.Key != "Content-Type")) request.Headers.TryAddWithoutValidation(header.Key, header.Value);
                    }
                    if (key != null) request.Headers.TryAddWithoutValidation("Idempotency-Key", key);
                    if (payload != null) request.Content = new StringContent(payload, Encoding.UTF8, contentType);

                    HttpResponseMessage response;
                    byte[] responseBody;
                    var attemptTimeout = Min(_options.AttemptTimeout, deadline - DateTimeOffset.UtcNow);
                    using (var attemptToken = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken))
                    {
                        try
                        {
                            if (attemptTimeout <= TimeSpan.Zero) throw new OperationCanceledException("the call's deadline passed");
                            attemptToken.CancelAfter(attemptTimeout);
                            response = await _http.SendAsync(request, attemptToken.Token).ConfigureAwait(false);
                            responseBody = await response.Content.ReadAsByteArrayAsync().ConfigureAwait(false);
                        }
                        catch (Exception error) when (!cancellationToken.IsCancellationRequested && IsNetworkFailure(error))
                        {
                            WarehouseApiException failure = error is OperationCanceledException
                                ? new ApiTimeoutException(0, "TIMEOUT", "No response within " + Max(attemptTimeout, TimeSpan.Zero), innerException: error)
                                : new ApiConnectionException(0, "NETWORK_ERROR", "Network error: " + error.Message, innerException: error);
                            if (op.Retry == "refused-only") throw failure;
                            await PauseAsync(attempt, Backoff(attempt), deadline, failure, cancellationToken).ConfigureAwait(false);
                            attempt++;
                            continue;
                        }
                    }
                    using (response)
                    {
                        IEnumerable<string> values;
                        if (response.Headers.TryGetValues("Consistency-Token", out values)) _consistencyToken = values.FirstOrDefault();
                        var status = (int)response.StatusCode;
                        if (status >= 200 && status < 300) return responseBody;
                        if (status == 401 && UsesSession(_options) && op.Access != "public" && !reauthenticated)
                        {
                            // The access token was refused (revoked, or expired early): renew it once and repeat.
                            reauthenticated = true;
                            _expiresAt = DateTimeOffset.MinValue;
                            continue;
                        }
                        var failure = Error(response, Encoding.UTF8.GetString(responseBody));
                        if (!tokenDropped && DropRefusedToken(failure, sentToken))
                        {
                            // Refused before anything ran, so any operation may go again: once, without the token.
                            tokenDropped = true;
                            continue;
                        }
                        if (status == 429)
                        {
                            var wait = failure.RetryAfter ?? Backoff(attempt);
                            if (wait > _options.MaxRetryAfter) throw failure;
                            await PauseAsync(attempt, wait, deadline, failure, cancellationToken).ConfigureAwait(false);
                            attempt++;
                            continue;
                        }
                        if (RetryableStatus.Contains(status) && op.Retry != "refused-only")
                        {
                            await PauseAsync(attempt, Backoff(attempt), deadline, failure, cancellationToken).ConfigureAwait(false);
                            attempt++;
                            continue;
                        }
                        throw failure;
                    }
                }
            }
        }

        /// <summary>
        /// Forgets the stored Consistency-Token when the server refused the one the request carried (a 400 naming the
        /// header: sealed under a key the server no longer has, or for another tenant), so the call can go again
        /// without it.
        /// </summary>
        private bool DropRefusedToken(WarehouseApiException failure, string sentToken)
        {
            if (failure.StatusCode != 400 || sentToken == null || sentToken != _consistencyToken) return false;
            if (!failure.Errors.Any(message => message.StartsWith("Consistency-Token:", StringComparison.Ordinal))) return false;
            _consistencyToken = null;
            return true;
        }

        /// <summary>Waits before the next attempt; throws <paramref name="failure"/> instead when the retries are spent or the wait would end past the deadline.</summary>
        private async Task PauseAsync(int attempt, TimeSpan wait, DateTimeOffset deadline, WarehouseApiException failure, CancellationToken cancellationToken)
        {
            if (attempt >= _options.MaxRetries || DateTimeOffset.UtcNow + wait >= deadline) throw failure;
            await Task.Delay(wait, cancellationToken).ConfigureAwait(false);
        }

        private static TimeSpan Min(TimeSpan a, TimeSpan b) { return a < b ? a : b; }

        private static TimeSpan Max(TimeSpan a, TimeSpan b) { return a > b ? a : b; }

        private static bool IsNetworkFailure(Exception error)
        {
            return error is HttpRequestException || error is IOException || error is WebException || error is OperationCanceledException;
        }

        private async Task<Dictionary<string, string>> HeadersForAsync(Operation op, CancellationToken cancellationToken)
        {
            var headers = new Dictionary<string, string>();
            if (op.Access == "public") return headers;
            if (op.Access == "platform")
            {
                if (string.IsNullOrEmpty(_options.PlatformToken)) throw new InvalidOperationException(op.Id + " needs the PlatformToken option");
                headers["Authorization"] = "Bearer " + _options.PlatformToken;
                return headers;
            }
            if (!string.IsNullOrEmpty(_options.ApiKey))
            {
                headers["X-API-Key"] = _options.ApiKey;
            }
            else if (UsesSession(_options))
            {
                headers["Authorization"] = "Bearer " + await AccessTokenAsync(cancellationToken).ConfigureAwait(false);
                if (!string.IsNullOrEmpty(_options.TenantId)) headers["X-Tenant-Id"] = _options.TenantId;
            }
            var token = _consistencyToken;
            if (token != null) headers["Consistency-Token"] = token;
            return headers;
        }

        /// <summary>
        /// A valid access token: logs in on first use, refreshes <c>RefreshBeforeExpiry</c> before it expires (keeping
        /// the rotated refresh token), logs in again when the refresh token is no longer accepted. One renewal at a time.
        /// </summary>
        private async Task<string> AccessTokenAsync(CancellationToken cancellationToken)
        {
            await _renewal.WaitAsync(cancellationToken).ConfigureAwait(false);
            try
            {
                if (_accessToken != null && DateTimeOffset.UtcNow < _expiresAt - _options.RefreshBeforeExpiry) return _accessToken;
                object session = null;
                if (_refreshToken != null)
                {
                    try
                    {
                        session = await DataAsync(Operations.RefreshSession, new string[0], null,
                            new Dictionary<string, object> { { "refreshToken", _refreshToken } }, null, null, cancellationToken).ConfigureAwait(false);
                    }
                    catch (WarehouseApiException error) when (error.StatusCode == 401)
                    {
                        // A refresh token that was used, revoked or expired: start a new login.
                    }
                }
                if (session == null)
                {
                    session = await DataAsync(Operations.Login, new string[0], null,
                        new Dictionary<string, object> { { "email", _options.Email }, { "password", _options.Password } }, null, null, cancellationToken).ConfigureAwait(false);
                }
                var fields = (JsonObject)session;
                _accessToken = fields.GetString("token");
                _refreshToken = fields.GetString("refreshToken");
                _expiresAt = DateTimeOffset.Parse(fields.GetString("expiresAt"), CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal);
                return _accessToken;
            }
            finally
            {
                _renewal.Release();
            }
        }

        private string Url(Operation op, string[] path, IDictionary<string, object> query)
        {
            var builder = new StringBuilder(_baseUrl);
            var template = op.Path;
            var next = 0;
            for (var i = 0; i < template.Length; i++)
            {
                if (template[i] != '{') { builder.Append(template[i]); continue; }
                builder.Append(Uri.EscapeDataString(path[next++]));
                i = template.IndexOf('}', i);
            }
            var separator = '?';
            if (query == null) return builder.ToString();
            foreach (var pair in query)
            {
                if (pair.Value == null) continue;
                builder.Append(separator).Append(Uri.EscapeDataString(pair.Key)).Append('=').Append(Uri.EscapeDataString(QueryValue(pair.Value)));
                separator = '&';
            }
            return builder.ToString();
        }

        private static string QueryValue(object value)
        {
            if (value is bool flag) return flag ? "true" : "false";
            if (value is DateTime time) return time.ToString("o", CultureInfo.InvariantCulture);
            if (value is DateTimeOffset offset) return offset.ToString("o", CultureInfo.InvariantCulture);
            return Convert.ToString(value, CultureInfo.InvariantCulture);
        }

        private static WarehouseApiException Error(HttpResponseMessage response, string text)
        {
            JsonObject envelope = null;
            try { envelope = Json.Parse(text) as JsonObject; } catch (FormatException) { }
            object message = null, errors = null;
            if (envelope != null)
            {
                envelope.TryGetValue("message", out message);
                envelope.TryGetValue("errors", out errors);
            }
            var status = (int)response.StatusCode;
            var summary = message as string ?? "HTTP " + status;
            var list = errors is List<object> items ? items.Select(e => Convert.ToString(e, CultureInfo.InvariantCulture)).ToList() : new List<string> { summary };
            return WarehouseApiException.ForStatus(status, Header(response, "X-Error-Code") ?? "HTTP_" + status, summary, list,
                Header(response, "X-Request-Id"), RetryAfter(response));
        }

        private static string Header(HttpResponseMessage response, string name)
        {
            IEnumerable<string> values;
            return response.Headers.TryGetValues(name, out values) ? values.FirstOrDefault() : null;
        }

        private static TimeSpan? RetryAfter(HttpResponseMessage response)
        {
            var value = Header(response, "Retry-After");
            if (value == null) return null;
            double seconds;
            if (double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out seconds)) return TimeSpan.FromSeconds(Math.Max(0, seconds));
            DateTimeOffset date;
            if (DateTimeOffset.TryParse(value, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out date))
            {
                var wait = date - DateTimeOffset.UtcNow;
                return wait > TimeSpan.Zero ? wait : TimeSpan.Zero;
            }
            return null;
        }

        /// <summary>Exponential backoff with jitter: about 0.5 s, 1 s, 2 s... (at most 8 s), each between half and all of it.</summary>
        private static TimeSpan Backoff(int attempt)
        {
            var random = _random ?? (_random = new Random(Guid.NewGuid().GetHashCode()));
            var ceiling = Math.Min(8.0, 0.5 * Math.Pow(2, attempt));
            return TimeSpan.FromSeconds(ceiling / 2 + random.NextDouble() * ceiling / 2);
        }
    }
}
