<?php

declare(strict_types=1);

namespace Warehouse\Api;

/**
 * A record of the API (the generated classes of `Warehouse\Api\Generated`): readonly typed properties under the API's
 * field names (`$product->sku`), read from the decoded JSON, which the record keeps whole. `jsonSerialize()` and
 * `toArray()` give it back exactly, fields a newer server added included (`extra()` lists those), and array access
 * reads it too (`$product['sku']`: the JSON's value, an enum as its string). Records are immutable: an update is a
 * call with the changed fields.
 *
 * @implements \ArrayAccess<string, mixed>
 */
abstract class Model implements \JsonSerializable, \ArrayAccess
{
    /** The JSON names this version knows. */
    public const FIELDS = [];

    /** @var array<string, mixed> */
    private readonly array $json;

    /** @param array<string, mixed> $data the API's JSON, decoded */
    public function __construct(array $data)
    {
        $this->json = $data;
    }

    /** @param array<string, mixed> $data the API's JSON, decoded */
    public static function fromArray(array $data): static
    {
        return new static($data);
    }

    /** @return array<string, mixed> the JSON the record was read from */
    public function toArray(): array
    {
        return $this->json;
    }

    /** @return array<string, mixed> */
    public function jsonSerialize(): array
    {
        return $this->json;
    }

    /** @return array<string, mixed> the fields this version does not know (a newer server's) */
    public function extra(): array
    {
        return array_diff_key($this->json, array_flip(static::FIELDS));
    }

    public function offsetExists(mixed $offset): bool
    {
        return isset($this->json[$offset]);
    }

    public function offsetGet(mixed $offset): mixed
    {
        return $this->json[$offset] ?? null;
    }

    public function offsetSet(mixed $offset, mixed $value): never
    {
        throw new \LogicException(static::class . ' is immutable: send the changed fields instead');
    }

    public function offsetUnset(mixed $offset): never
    {
        throw new \LogicException(static::class . ' is immutable: send the changed fields instead');
    }
}
