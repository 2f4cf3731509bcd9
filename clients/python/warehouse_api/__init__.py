"""The official Python client of the Warehouse Management API."""

from . import models
from ._errors import (
    ApiConnectionError,
    ApiTimeoutError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    ServerError,
    ValidationError,
    WarehouseApiError,
)
from ._feed import CursorFeed
from ._transport import UNSET, Page
from ._version import __version__
from ._webhooks import WebhookVerificationError, verify_webhook
from .client import WarehouseClient

__all__ = [
    "UNSET",
    "ApiConnectionError",
    "ApiTimeoutError",
    "AuthenticationError",
    "ConflictError",
    "CursorFeed",
    "NotFoundError",
    "Page",
    "PermissionDeniedError",
    "RateLimitError",
    "ServerError",
    "ValidationError",
    "WarehouseApiError",
    "WarehouseClient",
    "WebhookVerificationError",
    "__version__",
    "models",
    "verify_webhook",
]
