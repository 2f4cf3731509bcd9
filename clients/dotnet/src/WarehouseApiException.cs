using System;
using System.Collections.Generic;
using System.Linq;

namespace Warehouse.Api
{
    /// <summary>
    /// Every failure of a call; catch a subclass for one case. An error answer of the API carries its HTTP status, the
    /// machine code from <c>X-Error-Code</c>, the message, one line per problem and the request id; a failure without an
    /// answer (<see cref="ApiConnectionException"/>, <see cref="ApiTimeoutException"/>) has status 0 and code
    /// <c>NETWORK_ERROR</c> or <c>TIMEOUT</c>.
    /// </summary>
    public class WarehouseApiException : Exception
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

        /// <summary><c>400 VALIDATION_FAILED: Validation failed [sku: SKU is required] (request id 0f3c...)</c>.</summary>
        public string Summary
        {
            get
            {
                var details = Errors.Where(line => line != Message).ToList();
                return StatusCode + " " + Code + ": " + Message
                    + (details.Count > 0 ? " [" + string.Join("; ", details) + "]" : "")
                    + (RequestId != null ? " (request id " + RequestId + ")" : "");
            }
        }

        public override string ToString()
        {
            return GetType().FullName + ": " + Summary + (StackTrace != null ? Environment.NewLine + StackTrace : "");
        }

        /// <summary>The subclass of an error answer's status.</summary>
        internal static WarehouseApiException ForStatus(int status, string code, string message, IReadOnlyList<string> errors,
            string requestId, TimeSpan? retryAfter)
        {
            switch (status)
            {
                case 401: return new AuthenticationException(status, code, message, errors, requestId, retryAfter);
                case 403: return new PermissionDeniedException(status, code, message, errors, requestId, retryAfter);
                case 404: return new NotFoundException(status, code, message, errors, requestId, retryAfter);
                case 409: return new ConflictException(status, code, message, errors, requestId, retryAfter);
                case 400:
                case 422: return new ValidationException(status, code, message, errors, requestId, retryAfter);
                case 429: return new RateLimitException(status, code, message, errors, requestId, retryAfter);
            }
            return status >= 500
                ? new ServerException(status, code, message, errors, requestId, retryAfter)
                : new WarehouseApiException(status, code, message, errors, requestId, retryAfter);
        }
    }

    /// <summary>401: the credential is missing, malformed, expired or revoked.</summary>
    public class AuthenticationException : WarehouseApiException
    {
        public AuthenticationException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }

    /// <summary>403: the credential lacks a scope, the IP is not allowed, or the tenant is not accessible.</summary>
    public class PermissionDeniedException : WarehouseApiException
    {
        public PermissionDeniedException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }

    /// <summary>404: no such resource in this tenant.</summary>
    public class NotFoundException : WarehouseApiException
    {
        public NotFoundException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }

    /// <summary>409: the request conflicts with the current state (a duplicate SKU, a status change out of order...).</summary>
    public class ConflictException : WarehouseApiException
    {
        public ConflictException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }

    /// <summary>400 or 422: the input was refused; <c>Errors</c> names each field.</summary>
    public class ValidationException : WarehouseApiException
    {
        public ValidationException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }

    /// <summary>429: the tenant's rate limit; <c>RetryAfter</c> says when to try again.</summary>
    public class RateLimitException : WarehouseApiException
    {
        public RateLimitException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }

    /// <summary>5xx: the server failed or is unavailable.</summary>
    public class ServerException : WarehouseApiException
    {
        public ServerException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }

    /// <summary>No answer: the connection failed (status 0, code <c>NETWORK_ERROR</c>).</summary>
    public class ApiConnectionException : WarehouseApiException
    {
        public ApiConnectionException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }

    /// <summary>No answer before the call's deadline or the attempt's timeout (status 0, code <c>TIMEOUT</c>).</summary>
    public class ApiTimeoutException : ApiConnectionException
    {
        public ApiTimeoutException(int statusCode, string code, string message, IReadOnlyList<string> errors = null,
            string requestId = null, TimeSpan? retryAfter = null, Exception innerException = null)
            : base(statusCode, code, message, errors, requestId, retryAfter, innerException)
        {
        }
    }
}
