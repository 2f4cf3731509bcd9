"""Sends every call: credentials, tenant, Idempotency-Key, Consistency-Token, timeout, and the retries."""

import email.utils
import http.client
import json
import platform
import random
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any, Callable, Dict, Generic, Iterator, List, Mapping, NamedTuple, Optional, Sequence, TypeVar

from ._model import Model, plain

from ._errors import ApiConnectionError, ApiTimeoutError, WarehouseApiError, error_class
from ._version import __version__


class _Unset:
    """The default of every optional argument: the field is left out (``None`` sends ``null``)."""

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()

# Answers that say the server failed or is unavailable: repeated only when repeating is safe.
RETRYABLE_STATUS = {500, 502, 503, 504}

#: ``warehouse-api-python/1.0.0 (CPython 3.12.1)``: which client and runtime sent a request, for support.
USER_AGENT = f"warehouse-api-python/{__version__} ({platform.python_implementation()} {platform.python_version()})"


class Operation(NamedTuple):
    """An operation's verb and path, who may call it and whether a failed attempt may be repeated."""

    operation_id: str
    http_method: str
    path: str
    access: str  # public | credential | tenant | platform
    retry: str  # safe | idempotency-key | refused-only


T = TypeVar("T")


@dataclass
class Page(Generic[T]):
    """One page of a list: ``items`` (typed models) plus its position; ``data`` is the whole response as JSON
    (reports add totals)."""

    items: List[T]
    total_count: int
    page: int
    page_size: int
    total_pages: int
    data: Dict[str, Any] = field(repr=False)


class _Response(NamedTuple):
    status: int
    headers: Mapping[str, str]
    body: bytes


def _backoff(attempt: int) -> float:
    """Exponential backoff with jitter: about 0.5 s, 1 s, 2 s... (at most 8 s), each between half and all of it."""
    ceiling = min(8.0, 0.5 * 2**attempt)
    return ceiling / 2 + random.random() * ceiling / 2


def _retry_after(headers: Mapping[str, str]) -> Optional[float]:
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value)
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def _json_default(value: Any) -> Any:
    if isinstance(value, (Model, Enum)):
        return plain(value)
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return str(value)


class _Session:
    """A user's login: logs in on first use, refreshes before expiry (keeping the rotated refresh token),
    and logs in again when the refresh token is no longer accepted. One renewal at a time."""

    def __init__(self, transport: "Transport", email: str, password: str, margin: float) -> None:
        self._transport = transport
        self._credentials = {"email": email, "password": password}
        self._margin = margin
        self._lock = threading.Lock()
        self._token: Optional[str] = None
        self._refresh_token: Optional[str] = None
        self._expires_at = 0.0

    def access_token(self) -> str:
        with self._lock:
            if self._token is None or time.time() >= self._expires_at - self._margin:
                self._renew()
            assert self._token is not None
            return self._token

    def invalidate(self) -> None:
        with self._lock:
            self._expires_at = 0.0

    def _renew(self) -> None:
        if self._refresh_token:
            try:
                refresh = self._transport.operation("refreshSession")
                self._adopt(self._transport.call(refresh, body={"refreshToken": self._refresh_token}))
                return
            except WarehouseApiError as error:
                # A refresh token that was used, revoked or expired: start a new login.
                if error.status != 401:
                    raise
        self._adopt(self._transport.call(self._transport.operation("login"), body=dict(self._credentials)))

    def _adopt(self, session: Dict[str, Any]) -> None:
        self._token = session["token"]
        self._refresh_token = session["refreshToken"]
        self._expires_at = datetime.fromisoformat(session["expiresAt"].replace("Z", "+00:00")).timestamp()


class Transport:
    def __init__(
        self,
        operations: Mapping[str, Operation],
        base_url: str,
        api_key: Optional[str] = None,
        email: Optional[str] = None,
        password: Optional[str] = None,
        tenant_id: Optional[str] = None,
        platform_token: Optional[str] = None,
        timeout: float = 60.0,
        attempt_timeout: float = 30.0,
        max_retries: int = 3,
        max_retry_after: float = 60.0,
        refresh_before_expiry: float = 60.0,
    ) -> None:
        if not api_key and not (email and password) and not platform_token:
            raise ValueError("WarehouseClient needs api_key, or email and password (and tenant_id), or platform_token")
        base = base_url.rstrip("/")
        self._base_url = base[: -len("/api/v1")] if base.endswith("/api/v1") else base
        self._operations = operations
        self._api_key = api_key
        self._tenant_id = tenant_id
        self._platform_token = platform_token
        self._timeout = timeout
        self._attempt_timeout = attempt_timeout
        self._max_retries = max_retries
        self._max_retry_after = max_retry_after
        self._consistency_token: Optional[str] = None
        self._session = (
            _Session(self, email, password, refresh_before_expiry) if not api_key and email and password else None
        )

    def operation(self, operation_id: str) -> Operation:
        return self._operations[operation_id]

    def _headers_for(self, op: Operation) -> Dict[str, str]:
        if op.access == "public":
            return {}
        if op.access == "platform":
            if not self._platform_token:
                raise ValueError(f"{op.operation_id} needs the platform_token option")
            return {"Authorization": f"Bearer {self._platform_token}"}
        headers: Dict[str, str] = {}
        if self._api_key:
            headers["X-API-Key"] = self._api_key
        elif self._session:
            headers["Authorization"] = f"Bearer {self._session.access_token()}"
            if self._tenant_id:
                headers["X-Tenant-Id"] = self._tenant_id
        if self._consistency_token:
            headers["Consistency-Token"] = self._consistency_token
        return headers

    def _url(self, op: Operation, path: Sequence[str], query: Optional[Mapping[str, Any]]) -> str:
        url = op.path
        for value in path:
            start = url.index("{")
            url = url[:start] + urllib.parse.quote(str(value), safe="") + url[url.index("}", start) + 1 :]
        pairs = [(name, _query_value(value)) for name, value in (query or {}).items() if value is not UNSET]
        return self._base_url + url + (f"?{urllib.parse.urlencode(pairs)}" if pairs else "")

    @staticmethod
    def _send(method: str, url: str, headers: Dict[str, str], body: Optional[bytes], timeout: float) -> _Response:
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return _Response(answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read())
        except urllib.error.HTTPError as answer:
            return _Response(answer.code, {k.lower(): v for k, v in answer.headers.items()}, answer.read())

    def call(
        self,
        op: Operation,
        *,
        path: Sequence[str] = (),
        query: Optional[Mapping[str, Any]] = None,
        body: Any = UNSET,
        headers: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        paged: bool = False,
        csv: bool = False,
        download: Optional[str] = None,
        convert: Optional[Callable[[Any], Any]] = None,
    ) -> Any:
        """Sends one operation, retrying as its retry class allows, and returns the envelope's ``data``.

        ``download`` (the media types a file operation answers, sent as ``Accept``) returns the file's bytes as is.

        ``timeout`` (default: the client's) is the call's deadline in seconds, covering every attempt and every wait.
        """
        url = self._url(op, path, query)
        accept = download or ("text/csv" if csv else "application/json")
        fixed: Dict[str, str] = {"Accept": accept, "User-Agent": USER_AGENT}
        fixed.update({name: value for name, value in (headers or {}).items() if value is not None})
        payload: Optional[bytes] = None
        if isinstance(body, str):
            payload = body.encode("utf-8")
            fixed.setdefault("Content-Type", "text/csv")  # an upload names its own (NDJSON)
        elif body is not UNSET:
            if isinstance(body, dict):
                body = {name: value for name, value in body.items() if value is not UNSET}
            payload = json.dumps(body, default=_json_default).encode("utf-8")
            fixed["Content-Type"] = "application/json"
        if op.retry == "idempotency-key":
            fixed["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())

        deadline = time.monotonic() + (self._timeout if timeout is None else timeout)
        reauthenticated = False
        token_dropped = False
        attempt = 0
        while True:
            attempt_timeout = min(self._attempt_timeout, deadline - time.monotonic())
            sent = {**self._headers_for(op), **fixed}
            try:
                if attempt_timeout <= 0:
                    raise socket.timeout("the call's deadline passed")
                answer = self._send(op.http_method, url, sent, payload, attempt_timeout)
            except (OSError, http.client.HTTPException) as error:
                timed_out = isinstance(error, socket.timeout) or isinstance(
                    getattr(error, "reason", None), socket.timeout
                )
                failure = (
                    ApiTimeoutError(0, "TIMEOUT", f"No response within {max(0.0, attempt_timeout):.1f} s")
                    if timed_out
                    else ApiConnectionError(0, "NETWORK_ERROR", f"Network error: {error}")
                )
                failure.__cause__ = error
                if op.retry == "refused-only":
                    raise failure
                self._pause(attempt, _backoff(attempt), deadline, failure)
                attempt += 1
                continue
            token = answer.headers.get("consistency-token")
            if token:
                self._consistency_token = token
            if 200 <= answer.status < 300:
                return answer.body if download else self._result(answer, paged, csv, convert)
            if answer.status == 401 and self._session and op.access != "public" and not reauthenticated:
                # The access token was refused (revoked, or expired early): renew it once and repeat.
                reauthenticated = True
                self._session.invalidate()
                continue
            error = self._error(answer)
            if not token_dropped and self._drop_refused_token(error, sent):
                # Refused before anything ran, so any operation may go again: once, without the token.
                token_dropped = True
                continue
            if answer.status == 429:
                wait = error.retry_after if error.retry_after is not None else _backoff(attempt)
                if wait > self._max_retry_after:
                    raise error
                self._pause(attempt, wait, deadline, error)
                attempt += 1
                continue
            if answer.status in RETRYABLE_STATUS and op.retry != "refused-only":
                self._pause(attempt, _backoff(attempt), deadline, error)
                attempt += 1
                continue
            raise error

    def _drop_refused_token(self, error: WarehouseApiError, sent: Mapping[str, str]) -> bool:
        """Forgets the stored Consistency-Token when the server refused the one ``sent`` carried (a 400 naming the
        header: sealed under a key the server no longer has, or for another tenant). Only the stored token: one the
        caller passed is theirs to replace."""
        token = sent.get("Consistency-Token")
        if error.status != 400 or not token or token != self._consistency_token:
            return False
        if not any(str(message).startswith("Consistency-Token:") for message in error.errors or []):
            return False
        self._consistency_token = None
        return True

    def _pause(self, attempt: int, seconds: float, deadline: float, error: WarehouseApiError) -> None:
        """Waits before the next attempt; raises ``error`` instead when the retries are spent or the wait would end
        past the deadline."""
        if attempt >= self._max_retries or time.monotonic() + seconds >= deadline:
            raise error
        time.sleep(seconds)

    @staticmethod
    def _result(answer: _Response, paged: bool, csv: bool, convert: Optional[Callable[[Any], Any]]) -> Any:
        if csv or not answer.headers.get("content-type", "").startswith("application/json"):
            return answer.body.decode("utf-8")
        data = json.loads(answer.body).get("data")
        if paged:
            return Page(
                items=[convert(item) for item in data["items"]] if convert else data["items"],
                total_count=data["totalCount"],
                page=data["page"],
                page_size=data["pageSize"],
                total_pages=data["totalPages"],
                data=data,
            )
        return convert(data) if convert else data

    @staticmethod
    def _error(answer: _Response) -> WarehouseApiError:
        try:
            envelope = json.loads(answer.body)
        except ValueError:
            envelope = {}
        if not isinstance(envelope, dict):
            envelope = {}
        message = envelope.get("message")
        if not isinstance(message, str):
            message = f"HTTP {answer.status}"
        errors = envelope.get("errors")
        return error_class(answer.status)(
            status=answer.status,
            code=answer.headers.get("x-error-code", f"HTTP_{answer.status}"),
            message=message,
            errors=[str(e) for e in errors] if isinstance(errors, list) else [message],
            request_id=answer.headers.get("x-request-id"),
            retry_after=_retry_after(answer.headers),
        )

    @staticmethod
    def iterate(fetch_page: Callable[[int], Page[T]]) -> Iterator[T]:
        """Every item of a paged operation, fetching page after page until ``total_pages``."""
        page = 1
        while True:
            result = fetch_page(page)
            yield from result.items
            if page >= result.total_pages:
                return
            page += 1
