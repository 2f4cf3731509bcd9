from typing import Dict, List, Optional, Type


class WarehouseApiError(Exception):
    """Every failure of a call; catch a subclass for one case.

    An error answer of the API carries its HTTP ``status``, the machine ``code`` (``X-Error-Code``: ``NOT_FOUND``,
    ``VALIDATION_FAILED``, ``RATE_LIMITED``...), the ``message``, one line per problem in ``errors``
    (``"sku: SKU is required"``) and the server's ``request_id``. A failure without an answer
    (``ApiConnectionError``, ``ApiTimeoutError``) has status 0 and code ``NETWORK_ERROR`` or ``TIMEOUT``.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        errors: Optional[List[str]] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors if errors is not None else [message]
        self.request_id = request_id
        #: Seconds the server asked to wait (``Retry-After``), when it said.
        self.retry_after = retry_after

    def __str__(self) -> str:
        details = [line for line in self.errors if line != self.message]
        return "".join(
            [
                f"{self.status} {self.code}: {self.message}",
                f" [{'; '.join(details)}]" if details else "",
                f" (request id {self.request_id})" if self.request_id else "",
            ]
        )

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status={self.status}, code={self.code!r}, message={self.message!r}, "
            f"errors={self.errors!r}, request_id={self.request_id!r})"
        )


class AuthenticationError(WarehouseApiError):
    """401: the credential is missing, malformed, expired or revoked."""


class PermissionDeniedError(WarehouseApiError):
    """403: the credential lacks a scope, the IP is not allowed, or the tenant is not accessible."""


class NotFoundError(WarehouseApiError):
    """404: no such resource in this tenant."""


class ConflictError(WarehouseApiError):
    """409: the request conflicts with the current state (a duplicate SKU, a status change out of order...)."""


class ValidationError(WarehouseApiError):
    """400 or 422: the input was refused; ``errors`` names each field."""


class RateLimitError(WarehouseApiError):
    """429: the tenant's rate limit; ``retry_after`` says when to try again."""


class ServerError(WarehouseApiError):
    """5xx: the server failed or is unavailable."""


class ApiConnectionError(WarehouseApiError):
    """No answer: the connection failed (status 0, code ``NETWORK_ERROR``)."""


class ApiTimeoutError(ApiConnectionError):
    """No answer before the call's deadline or the attempt's timeout (status 0, code ``TIMEOUT``)."""


_BY_STATUS: Dict[int, Type[WarehouseApiError]] = {
    400: ValidationError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: ValidationError,
    429: RateLimitError,
}


def error_class(status: int) -> Type[WarehouseApiError]:
    """The subclass of an error answer's status."""
    return _BY_STATUS.get(status, ServerError if status >= 500 else WarehouseApiError)
