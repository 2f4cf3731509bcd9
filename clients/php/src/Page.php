<?php

declare(strict_types=1);

namespace Warehouse\Api;

/**
 * One page of a list: its items and position; `data` is the whole response (reports add totals).
 *
 * @template T
 */
final class Page
{
    /**
     * @param list<T> $items
     * @param array<string, mixed> $data
     */
    public function __construct(
        public readonly array $items,
        public readonly int $totalCount,
        public readonly int $page,
        public readonly int $pageSize,
        public readonly int $totalPages,
        public readonly array $data,
    ) {
    }

    /**
     * The same page with each item converted (the generated resources read items as their record class).
     *
     * @template U
     * @param callable(T): U $convert
     * @return Page<U>
     */
    public function map(callable $convert): self
    {
        return new self(array_map($convert, $this->items), $this->totalCount, $this->page, $this->pageSize, $this->totalPages, $this->data);
    }
}
