<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use Warehouse\Api\ApiConnectionException;
use Warehouse\Api\ApiTimeoutException;
use Warehouse\Api\AuthenticationException;
use Warehouse\Api\ConflictException;
use Warehouse\Api\Generated\Product;
use Warehouse\Api\Generated\ProductStatus;
use Warehouse\Api\Generated\Version;
use Warehouse\Api\NotFoundException;
use Warehouse\Api\PermissionDeniedException;
use Warehouse\Api\RateLimitException;
use Warehouse\Api\ServerException;
use Warehouse\Api\ValidationException;
use Warehouse\Api\WarehouseApiException;
use Warehouse\Api\WarehouseClient;

/**
 * Typed models, the error hierarchy, the call's deadline, Retry-After's cap, which 500s are retried, cancellation
 * and the User-Agent: against the live API, with the harness proxy as the local test server of the faults.
 *
 * @phpstan-import-type Product from \Warehouse\Api\Generated\Models
 */
final class TypesErrorsAndTimeTest extends TestCase
{
    private static WarehouseClient $client;

    public static function setUpBeforeClass(): void
    {
        self::$client = self::client();
    }

    /** @param array<string, mixed> $config */
    private static function client(array $config = []): WarehouseClient
    {
        return new WarehouseClient($config + ['base_url' => Harness::env('WAREHOUSE_BASE_URL'), 'api_key' => Harness::env('WAREHOUSE_API_KEY')]);
    }

    /** @return Product */
    private static function newProduct(): Product
    {
        return self::$client->products->create(['sku' => 'TY-' . Harness::unique(), 'name' => 'Typed', 'price' => 2.5]);
    }

    /**
     * @template T of \Throwable
     * @param class-string<T> $class
     * @return T
     */
    private function thrown(string $class, callable $call): \Throwable
    {
        try {
            $call();
        } catch (\Throwable $error) {
            $this->assertInstanceOf($class, $error);
            return $error;
        }
        self::fail("no {$class}");
    }

    public function testACreatedProductIsAnObjectWithTypedPropertiesAndAnEnumForItsStatus(): void
    {
        $product = self::newProduct();
        $this->assertInstanceOf(Product::class, $product);
        $this->assertSame(ProductStatus::Active, $product->status);
        $this->assertSame([2.5, 0], [$product->price, $product->reorderPoint]);
        // The JSON is kept whole: array access and json_encode read it as the server sent it.
        $this->assertSame('Active', $product['status']);
        $this->assertSame($product->toArray(), json_decode(json_encode($product), true));
    }

    public function testKeepsWhatANewerServerAddsAndRefusesATypeMismatch(): void
    {
        $json = self::newProduct()->toArray();
        $newer = Product::fromArray(['status' => 'Archived', 'carbonGrams' => 12] + $json);
        $this->assertNull($newer->status); // a value this version does not know
        $this->assertSame('Archived', $newer['status']);
        $this->assertSame(['carbonGrams' => 12], $newer->extra());
        $this->assertSame(12, $newer->toArray()['carbonGrams']);
        // Strict types: a record whose field has the wrong type is refused, never read as something else.
        $this->expectException(\TypeError::class);
        Product::fromArray(['price' => 'cheap'] + $json);
    }

    public function testEachErrorIsItsOwnSubclassWithEverythingInItsStringForm(): void
    {
        $client = self::$client;
        $this->thrown(NotFoundException::class, fn () => $client->products->get('00000000-0000-4000-8000-000000000000'));
        $invalid = $this->thrown(ValidationException::class, fn () => $client->products->create(['sku' => ' ', 'name' => '']));
        $text = (string) $invalid;
        $this->assertStringStartsWith(ValidationException::class . ': 400 VALIDATION_FAILED: Validation failed [', $text);
        $this->assertStringContainsString('sku: SKU is required', $text);
        $this->assertNotNull($invalid->getRequestId());
        $this->assertStringContainsString("(request id {$invalid->getRequestId()})", $text);
        $stranger = self::client(['api_key' => 'wms_live_not_a_real_key']);
        $this->thrown(AuthenticationException::class, fn () => $stranger->products->list());
        $reader = $client->apiKeys->create(['name' => 'reader-' . Harness::unique(), 'scopes' => ['read:products']]);
        $readOnly = self::client(['api_key' => $reader['key']]);
        $this->thrown(PermissionDeniedException::class, fn () => $readOnly->products->create(['sku' => 'NO-' . Harness::unique(), 'name' => 'Refused']));
        $taken = self::newProduct();
        $this->thrown(ConflictException::class, fn () => $client->products->create(['sku' => $taken['sku'], 'name' => 'Twice']));
        $nowhere = new WarehouseClient(['base_url' => 'http://127.0.0.1:9', 'api_key' => 'k', 'max_retries' => 0]);
        $unreachable = $this->thrown(ApiConnectionException::class, fn () => $nowhere->products->list());
        $this->assertNotInstanceOf(ApiTimeoutException::class, $unreachable);
        $this->assertInstanceOf(WarehouseApiException::class, $unreachable);
    }

    public function testASafe500IsRetriedAndAnUnsafeOneIsNot(): void
    {
        $product = self::newProduct();
        $read = "GET /api/v1/products/{$product['id']}";
        Harness::fault($read, 500);
        $this->assertSame($product['id'], self::$client->products->get($product['id'])['id']);
        $this->assertSame(2, Harness::faultSeen($read));

        // A PATCH carries an Idempotency-Key, so it is retried too.
        $patch = "PATCH /api/v1/products/{$product['id']}";
        Harness::fault($patch, 500);
        $this->assertSame('Patched once', self::$client->products->patch($product['id'], ['name' => 'Patched once'])->name);
        $this->assertSame(2, Harness::faultSeen($patch));

        // A login the server cannot de-duplicate is not repeated.
        $login = 'POST /api/v1/auth/login';
        Harness::fault($login, 500);
        $credentials = ['email' => Harness::env('WAREHOUSE_EMAIL'), 'password' => Harness::env('WAREHOUSE_PASSWORD')];
        $this->thrown(ServerException::class, fn () => self::$client->auth->login($credentials));
        $this->assertSame(1, Harness::faultSeen($login));
    }

    public function testTheDeadlineEndsACallStuckBehindALongRetryAfterAtOnce(): void
    {
        $product = self::newProduct();
        $read = "GET /api/v1/products/{$product['id']}";
        Harness::fault($read, 429, 10, 30);
        $started = microtime(true);
        $limited = $this->thrown(RateLimitException::class, fn () => self::$client->products->get($product['id'], ['timeout' => 3.0]));
        $this->assertSame(30.0, $limited->getRetryAfter());
        $this->assertLessThan(3.0, microtime(true) - $started);
        $this->assertSame(1, Harness::faultSeen($read));

        // Within the deadline but beyond the cap: surfaced at once too.
        Harness::fault($read, 429, 10, 10);
        $started = microtime(true);
        $this->thrown(RateLimitException::class, fn () => self::client(['max_retry_after' => 5.0])->products->get($product['id']));
        $this->assertLessThan(3.0, microtime(true) - $started);

        // A short one is waited out.
        Harness::fault($read, 429, 1, 1);
        $started = microtime(true);
        $this->assertSame($product['id'], self::$client->products->get($product['id'])['id']);
        $this->assertGreaterThanOrEqual(1.0, microtime(true) - $started);
    }

    public function testAPerCallTimeoutCancelsACallWhoseAnswerNeverComes(): void
    {
        $product = self::newProduct();
        $read = "GET /api/v1/products/{$product['id']}";
        Harness::fault($read, times: 10, hang: true);
        $started = microtime(true);
        $this->thrown(ApiTimeoutException::class, fn () => self::$client->products->get($product['id'], ['timeout' => 1.5]));
        $elapsed = microtime(true) - $started;
        $this->assertGreaterThanOrEqual(1.4, $elapsed);
        $this->assertLessThan(3.0, $elapsed);

        // One deadline over every attempt: short attempts are retried until it passes, not beyond.
        $patient = self::client(['attempt_timeout' => 0.5, 'max_retries' => 10]);
        Harness::fault($read, times: 10, hang: true);
        $started = microtime(true);
        $this->thrown(ApiTimeoutException::class, fn () => $patient->products->get($product['id'], ['timeout' => 2.5]));
        $this->assertLessThan(3.5, microtime(true) - $started);
        $this->assertGreaterThanOrEqual(2, Harness::faultSeen($read));
    }

    public function testSendsItsUserAgent(): void
    {
        Harness::proxy('DELETE', 'log');
        self::$client->health->get();
        $this->assertSame('warehouse-api-php/' . Version::CLIENT . ' (PHP ' . PHP_VERSION . ')', Harness::proxy('GET', 'log')[0]['userAgent']);
    }
}
