<?php

declare(strict_types=1);

namespace Warehouse\Api;

/**
 * Every item after a stored position of a cursor-paged operation (the events feed), page after page, until the
 * feed has nothing more (`hasMore` false). `cursor()` is the position after the last item handed out: store it
 * once that item is processed and pass it back as `after` to resume without missing or repeating one. A
 * position too old for the server throws WarehouseApiException with status 410 (code `GONE`): resynchronise,
 * then follow again without `after`. Each `foreach` reads until the feed has nothing more; a later one continues
 * from `cursor()` (polling).
 *
 * The server's cursor marks page ends only; a reader that stops inside a page stores `<page cursor>~<n>` (the
 * page's own `after` and how many of its items were handed out), so resuming skips exactly those. The same rule
 * in every client (docs/decisions/clients.md).
 *
 * @template T the item's type (the events feed's: the `Event` union of `Generated\Models`)
 * @implements \IteratorAggregate<int, T>
 */
final class CursorFeed implements \IteratorAggregate
{
    private const SEPARATOR = '~';

    /** @var \Closure(?string): object a cursor page: `items`, `nextCursor`, `hasMore` */
    private readonly \Closure $fetchPage;
    private ?string $pageAfter;
    private int $handedOut = 0;
    private ?object $page = null;

    /** @param callable(?string): object $fetchPage a cursor page: `items` (list<T>), `nextCursor`, `hasMore` */
    public function __construct(callable $fetchPage, ?string $after = null)
    {
        $this->fetchPage = \Closure::fromCallable($fetchPage);
        $this->pageAfter = $after;
        $at = $after === null ? false : strrpos($after, self::SEPARATOR);
        if ($after !== null && $at !== false) {
            $count = substr($after, $at + 1);
            if (!ctype_digit($count)) {
                throw new \InvalidArgumentException("not a feed position: {$after}");
            }
            $this->pageAfter = $at === 0 ? null : substr($after, 0, $at);
            $this->handedOut = (int) $count;
        }
    }

    /** Where to resume: the position after the last item handed out (null before the first page). */
    public function cursor(): ?string
    {
        if ($this->page !== null && $this->handedOut >= count($this->page->items)) {
            return $this->page->nextCursor;
        }
        if ($this->handedOut === 0) {
            return $this->pageAfter;
        }
        return ($this->pageAfter ?? '') . self::SEPARATOR . $this->handedOut;
    }

    /** @return \Generator<int, T> */
    public function getIterator(): \Generator
    {
        $fetched = false;
        while (true) {
            $page = $this->page;
            if ($page !== null && $this->handedOut < count($page->items)) {
                $item = $page->items[$this->handedOut];
                $this->handedOut++;
                yield $item;
                continue;
            }
            if ($page !== null && $fetched && !$page->hasMore) {
                return;
            }
            if ($page !== null) {
                // A stored position can skip past this page's end: the rest is skipped on the next one.
                $this->handedOut = $page->hasMore ? $this->handedOut - count($page->items) : 0;
                $this->pageAfter = $page->nextCursor;
            }
            $this->page = ($this->fetchPage)($this->pageAfter);
            $fetched = true;
        }
    }
}
