using System;
using System.Collections.Generic;

namespace Warehouse.Api
{
    /// <summary>
    /// Every failure of a call: an error answer of the API (its HTTP status, the machine code from
    /// <c>X-Error-Code</c>, the message and one line per problem) or, with status 0, a network failure or timeout
    /// that outlasted the retries (codes <c>NETWORK_ERROR</c>, <c>TIMEOUT</c>).
    /// </summary>
    public sealed class WarehouseApiException : Exception
    {
        public WarehouseApiException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(message, innerException)
        {
            StatusCode = statusCode;
            Code = code;
            Errors = errors ?? new[] { message };
            RequestId = requestId;
            RetryAfter = retryAfter;
        }

        /// <summary>The HTTP status; 0 when no response arrived.</summary>
        public int StatusCode { get; }

        /// <summary>The machine-readable code (<c>X-Error-Code</c>): <c>NOT_FOUND</c>, <c>VALIDATION_FAILED</c>...</summary>
        public string Code { get; }

        /// <summary>One message per problem, e.g. <c>sku: SKU is required</c>.</summary>
        public IReadOnlyList<string> Errors { get; }

        /// <summary>The server's <c>X-Request-Id</c>: quote it when asking for support.</summary>
        public string RequestId { get; }

        /// <summary>How long the server asked to wait (<c>Retry-After</c>), when it said.</summary>
        public TimeSpan? RetryAfter { get; }
    }
}
