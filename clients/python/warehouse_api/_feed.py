"""Following a cursor-paged operation (the events feed) item by item, with a position the caller can store.

The server's cursor marks page ends only; a reader that stops inside a page stores ``<page cursor>~<n>`` (the
page's own ``after`` and how many of its items were handed out), so resuming skips exactly those. The same
rule in every client (docs/decisions/clients.md).
"""

from typing import Any, Callable, Generic, Iterator, Optional, Tuple, TypeVar

SEPARATOR = "~"

# A cursor page: ``items``, ``next_cursor``, ``has_more`` (the generated model of the operation's data).
FetchPage = Callable[[Optional[str]], Any]
T = TypeVar("T")


def _parse_position(position: Optional[str]) -> Tuple[Optional[str], int]:
    if position is None or SEPARATOR not in position:
        return position, 0
    after, _, count = position.rpartition(SEPARATOR)
    if not count.isdigit():
        raise ValueError(f"not a feed position: {position}")
    return after or None, int(count)


class CursorFeed(Generic[T]):
    """Every item after a stored position, page after page, until the feed has nothing more (``hasMore`` false).

    ``cursor`` is the position after the last item handed out: store it once that item is processed, and pass
    it back as ``after`` to resume without missing or repeating one. A position too old for the server raises
    ``WarehouseApiError`` with status 410 (code ``GONE``): resynchronise, then follow again without ``after``.
    Each pass of ``for`` reads until the feed has nothing more; a later pass continues from ``cursor`` (polling).
    """

    def __init__(self, fetch_page: FetchPage, after: Optional[str] = None) -> None:
        self._fetch_page = fetch_page
        self._page_after, self._handed_out = _parse_position(after)
        self._page: Any = None

    @property
    def cursor(self) -> Optional[str]:
        """Where to resume: the position after the last item handed out (None before the first page)."""
        if self._page is not None and self._handed_out >= len(self._page.items):
            return self._page.next_cursor
        if self._handed_out == 0:
            return self._page_after
        return f"{self._page_after or ''}{SEPARATOR}{self._handed_out}"

    def __iter__(self) -> Iterator[T]:
        fetched = False
        while True:
            page = self._page
            if page is not None and self._handed_out < len(page.items):
                item = page.items[self._handed_out]
                self._handed_out += 1
                yield item
                continue
            if page is not None and fetched and not page.has_more:
                return
            if page is not None:
                # A stored position can skip past this page's end: the rest is skipped on the next one.
                self._handed_out = self._handed_out - len(page.items) if page.has_more else 0
                self._page_after = page.next_cursor
            self._page = self._fetch_page(self._page_after)
            fetched = True
