from typing import List, Optional


class WarehouseApiError(Exception):
    """Every failure of a call.

    An error answer of the API carries its HTTP ``status``, the machine ``code`` (``X-Error-Code``: ``NOT_FOUND``,
    ``VALIDATION_FAILED``, ``RATE_LIMITED``...), the ``message``, one line per problem in ``errors``
    (``"sku: SKU is required"``) and the server's ``request_id``. A network failure or timeout that outlasted the
    retries has status 0 and code ``NETWORK_ERROR`` or ``TIMEOUT``.
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

    def __repr__(self) -> str:
        return f"WarehouseApiError(status={self.status}, code={self.code!r}, message={self.message!r})"
