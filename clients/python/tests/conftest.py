"""What the harness (clients/harness/run.mjs) hands the tests: URLs and credentials, and the proxy's controls."""

import json
import os
import random
import string
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Optional

# The tests import the package from this checkout, as an installed copy would be imported.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run the client tests with npm run test:clients")
    return value


BASE_URL = os.environ.get("WAREHOUSE_BASE_URL", "")


def unique() -> str:
    return (format(int(time.time() * 1000), "x") + "".join(random.choices(string.ascii_lowercase, k=4))).upper()


def _control(method: str, path: str, body: Optional[Any] = None) -> Any:
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(
        f"{env('WAREHOUSE_BASE_URL')}/__harness/{path}",
        data=data,
        method=method,
        headers={} if body is None else {"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


class Proxy:
    @staticmethod
    def log() -> Any:
        return _control("GET", "log")

    @staticmethod
    def clear_log() -> None:
        _control("DELETE", "log")

    @staticmethod
    def drop_response(match: str) -> None:
        """Cuts the connection after the server answered the next request whose body contains ``match``."""
        _control("POST", "drop", {"match": match})

    @staticmethod
    def requests_matching(match: str) -> Any:
        return _control("GET", f"drop?match={urllib.parse.quote(match)}")["requests"]

    @staticmethod
    def send_consistency_token(value: str) -> None:
        _control("POST", "consistency-token", {"value": value})

    @staticmethod
    def fault(match: str, status: int = 500, times: int = 1, retry_after: Optional[int] = None, hang: bool = False) -> None:
        """Answers the next ``times`` requests whose ``METHOD /path`` contains ``match`` with ``status`` (or never)."""
        fault: Any = {"match": match, "status": status, "times": times, "hang": hang}
        if retry_after is not None:
            fault["retryAfter"] = retry_after
        _control("POST", "fault", fault)

    @staticmethod
    def fault_seen(match: str) -> int:
        """How many requests matched the fault (answered by it, or forwarded after it ran out)."""
        return _control("GET", f"fault?match={urllib.parse.quote(match)}")["seen"]

    @staticmethod
    def webhooks(event_type: str, wait_seconds: int) -> Any:
        return _control("GET", f"webhooks?type={urllib.parse.quote(event_type)}&wait={wait_seconds}")


proxy = Proxy()
