<?php

declare(strict_types=1);

use PHPUnit\Framework\TestCase;
use Warehouse\Api\Generated\OrderCreatedEvent;
use Warehouse\Api\Generated\OrderCreatedWebhookBody;
use Warehouse\Api\Generated\OrderStatus;
use Warehouse\Api\Generated\Product;
use Warehouse\Api\Generated\ProductStatus;
use Warehouse\Api\Page;
use Warehouse\Api\RateLimitException;
use Warehouse\Api\WarehouseApiException;
use Warehouse\Api\WarehouseClient;
use Warehouse\Api\Webhook;
use Warehouse\Api\WebhookVerificationException;

/** The scenario every client runs against the live API (see clients/README.md), here for PHP. */
final class ScenarioTest extends TestCase
{
    private static WarehouseClient $client;

    public static function setUpBeforeClass(): void
    {
        self::$client = new WarehouseClient([
            'base_url' => Harness::env('WAREHOUSE_BASE_URL'),
            'api_key' => Harness::env('WAREHOUSE_API_KEY'),
        ]);
    }

    private static function failure(callable $call): WarehouseApiException
    {
        try {
            $call();
        } catch (WarehouseApiException $error) {
            return $error;
        }
        self::fail('the call succeeded');
    }

    public function testHasAMethodForEveryOperationOfTheApi(): void
    {
        $operations = json_decode((string) file_get_contents(Harness::env('WAREHOUSE_OPERATIONS')), true)['operations'];
        $missing = [];
        foreach ($operations as $op) {
            $names = [$op['method']];
            if ($op['paged'] || $op['cursor']) {
                $names[] = str_starts_with($op['method'], 'list') ? 'iterate' . substr($op['method'], 4) : 'iterate' . ucfirst($op['method']);
            }
            if ($op['csv']) {
                $names[] = $op['method'] . 'Csv';
            }
            foreach ($names as $name) {
                $group = self::$client->{$op['group']} ?? null;
                if ($group === null || !method_exists($group, $name)) {
                    $missing[] = "{$op['operationId']} -> {$op['group']}->{$name}";
                }
            }
        }
        $this->assertSame([], $missing);
        $this->assertGreaterThan(50, count($operations));
    }

    public function testCreatesAProductStocksItSellsItAndShipsIt(): void
    {
        $client = self::$client;
        $u = Harness::unique();
        $warehouse = $client->warehouses->create(['code' => "WH-{$u}", 'name' => 'Main']);
        $location = $client->locations->create(['warehouseId' => $warehouse->id, 'code' => "A-{$u}", 'name' => 'Aisle A', 'type' => 'bin']);
        $product = $client->products->create(['sku' => "PHP-{$u}", 'name' => 'Widget', 'price' => 19.99]);
        $this->assertInstanceOf(Product::class, $product);
        $this->assertSame(["PHP-{$u}", 19.99, ProductStatus::Active], [$product->sku, $product->price, $product->status]);

        $adjusted = $client->inventory->adjust(['productId' => $product->id, 'locationId' => $location->id, 'quantity' => 10, 'reason' => 'received']);
        $this->assertSame([10, 10], [$adjusted->stockLevel->onHand, $adjusted->stockLevel->available]);

        $order = $client->orders->createSales([
            'customerId' => '0193a2b0-0000-7000-8000-0000000000c1',
            'lines' => [['productId' => $product->id, 'quantity' => 3, 'price' => 19.99]],
            'shippingAddress' => ['street' => '1 Main St', 'city' => 'Springfield', 'zip' => '12345'],
        ]);
        $this->assertSame(OrderStatus::Pending, $order->status);
        $this->assertSame(3, $order->lines[0]->quantity);
        $reserved = $client->inventory->listStock(['productId' => $product->id])->items[0];
        $this->assertSame([10, 3, 7], [$reserved->onHand, $reserved->reserved, $reserved->available]);

        $shipped = $client->orders->updateStatus($order->id, ['status' => 'shipped', 'trackingNumber' => '1Z999']);
        $this->assertSame([OrderStatus::Shipped, '1Z999'], [$shipped->status, $shipped->trackingNumber]);
        $stock = $client->inventory->listStock(['productId' => $product->id])->items[0];
        $this->assertSame([7, 0, 7], [$stock->onHand, $stock->reserved, $stock->available]);
    }

    public function testDownloadsAPackageLabelAsItsBytes(): void
    {
        $client = self::$client;
        $u = Harness::unique();
        $warehouse = $client->warehouses->create(['code' => "WL-{$u}", 'name' => 'Labels']);
        $location = $client->locations->create(['warehouseId' => $warehouse['id'], 'code' => "L-{$u}", 'name' => 'Bin', 'type' => 'bin']);
        $product = $client->products->create(['sku' => "LB-{$u}", 'name' => 'Labelled']);
        $client->inventory->adjust(['productId' => $product['id'], 'locationId' => $location['id'], 'quantity' => 5, 'reason' => 'received']);
        $order = $client->orders->createSales([
            'customerId' => '0193a2b0-0000-7000-8000-0000000000c2',
            'warehouseId' => $warehouse['id'],
            'lines' => [['productId' => $product['id'], 'quantity' => 2, 'price' => 1]],
            'shippingAddress' => ['street' => '1 Main St', 'city' => 'Springfield', 'zip' => '12345'],
        ]);
        $client->orders->updateStatus($order['id'], ['status' => 'confirmed']);
        $shipment = $client->orders->createShipment($order['id'], [
            'packages' => [['weight' => ['value' => 1.5, 'unit' => 'kg'], 'lines' => [['orderLineId' => $order['lines'][0]['id'], 'quantity' => 2]]]],
        ]);
        $package = $shipment['packages'][0];
        $client->shipments->label($shipment['id'], ['trackingNumbers' => [['packageId' => $package['id'], 'trackingNumber' => "1Z{$u}"]]]);
        $label = $client->shipments->getLabel($shipment['id'], $package['id']);
        $this->assertStringStartsWith('^XA', $label);
        $this->assertStringEndsWith('^XZ', rtrim($label));
        $this->assertStringContainsString("^FD(00){$package['sscc']}^FS", $label);
        $this->assertStringContainsString("^FD1Z{$u}^FS", $label);
    }

    public function testUploadsAFileImportsItAsAJobAndWaitsReadsItsErrorReportAndAnExport(): void
    {
        $client = self::$client;
        $u = Harness::unique();
        $warehouse = $client->warehouses->create(['code' => "WJ-{$u}", 'name' => 'Jobs']);
        $location = $client->locations->create(['warehouseId' => $warehouse['id'], 'code' => "J-{$u}", 'name' => 'J', 'type' => 'bin']);
        $product = $client->products->create(['sku' => "PHPJ-{$u}", 'name' => 'Imported']);
        $csv = "sku,locationCode,quantity,reason\n{$product['sku']},J-{$u},5,received\nNOPE-{$u},J-{$u},1,received\n";
        $job = $client->importFile('stock_import', $csv, ['poll_interval' => 0.2]);
        $this->assertSame(['succeeded', 2, 1], [$job['status'], $job['processed'], $job['failed']]);
        $this->assertSame([['line' => 3, 'errors' => ["sku: no product has SKU NOPE-{$u}"]]], $job['errors']);
        $this->assertSame("line,errors\r\n3,sku: no product has SKU NOPE-{$u}\r\n", $client->jobResult($job['id']));
        $this->assertSame(5, $client->inventory->listStock(['productId' => $product['id']])->items[0]['onHand']);
        $exported = $client->waitForJob($client->jobs->create(['type' => 'stock_export'])['id'], ['poll_interval' => 0.2]);
        $this->assertSame('succeeded', $exported['status']);
        $this->assertStringContainsString("{$product['sku']},WJ-{$u},J-{$u},,5,0,5\r\n", $client->jobResult($exported['id']));
    }

    public function testWalksAListAcrossThreePagesWithTheIterator(): void
    {
        $category = 'cat-' . Harness::unique();
        for ($i = 0; $i < 5; $i++) {
            self::$client->products->create(['sku' => "PG-{$category}-{$i}", 'name' => "Paged {$i}", 'category' => $category]);
        }
        Harness::proxy('DELETE', 'log');
        $skus = [];
        foreach (self::$client->products->iterate(['category' => $category, 'pageSize' => 2, 'sort' => 'sku']) as $product) {
            $skus[] = $product['sku'];
        }
        $this->assertSame(array_map(fn ($i) => "PG-{$category}-{$i}", range(0, 4)), $skus);
        $pages = [];
        foreach (Harness::proxy('GET', 'log') as $entry) {
            if (str_starts_with($entry['path'], '/api/v1/products?')) {
                parse_str((string) parse_url($entry['path'], PHP_URL_QUERY), $query);
                $pages[] = $query['page'];
            }
        }
        $this->assertSame(['1', '2', '3'], $pages);
    }

    public function testThrowsA404AsWarehouseApiExceptionWithTheRequestId(): void
    {
        Harness::proxy('DELETE', 'log');
        $error = self::failure(fn () => self::$client->products->get('0193a2b0-0000-7000-8000-00000000dead'));
        $this->assertSame([404, 'NOT_FOUND', 'Product not found'], [$error->getStatus(), $error->getErrorCode(), $error->getMessage()]);
        $this->assertNotEmpty($error->getRequestId());
        $this->assertSame(Harness::proxy('GET', 'log')[0]['requestId'], $error->getRequestId());
    }

    public function testThrowsA400WithOneMessagePerInvalidField(): void
    {
        $error = self::failure(fn () => self::$client->products->create(['sku' => ' ', 'name' => '']));
        $this->assertSame([400, 'VALIDATION_FAILED'], [$error->getStatus(), $error->getErrorCode()]);
        $this->assertContains('sku: SKU is required', $error->getErrors());
        $this->assertContains('name: Name is required', $error->getErrors());
    }

    public function testRetriesACreateAfterADroppedConnectionAndCreatesItExactlyOnce(): void
    {
        $sku = 'DROP-' . Harness::unique();
        Harness::proxy('POST', 'drop', ['match' => $sku]);
        $product = self::$client->products->create(['sku' => $sku, 'name' => 'Dropped once']);
        $this->assertSame($sku, $product['sku']);

        $requests = Harness::proxy('GET', 'drop?match=' . rawurlencode($sku))['requests'];
        $this->assertSame([[true, false], [false, true]], array_map(fn ($r) => [$r['dropped'], $r['replayed']], $requests));
        $this->assertNotEmpty($requests[0]['idempotencyKey']);
        $this->assertSame($requests[0]['idempotencyKey'], $requests[1]['idempotencyKey']);
        $this->assertSame(1, self::$client->products->list(['search' => $sku])->totalCount);
    }

    public function testRetriesAStatusChangeAfterADroppedConnectionAndAppliesItOnce(): void
    {
        // A PATCH carries an Idempotency-Key like a create: the server replays the first answer to the retry, where
        // applying "shipped" again would be refused (409: the order is already shipped).
        [$product] = self::stockedProduct(5);
        $order = self::$client->orders->createSales([
            'customerId' => '0193a2b0-0000-7000-8000-0000000000c5',
            'lines' => [['productId' => $product->id, 'quantity' => 2, 'price' => 1]],
            'shippingAddress' => ['street' => '1 Main St', 'city' => 'Springfield', 'zip' => '12345'],
        ]);
        $tracking = '1Z' . Harness::unique();
        Harness::proxy('POST', 'drop', ['match' => $tracking]);
        $shipped = self::$client->orders->updateStatus($order->id, ['status' => 'shipped', 'trackingNumber' => $tracking]);
        $this->assertSame([OrderStatus::Shipped, $tracking], [$shipped->status, $shipped->trackingNumber]);

        $requests = Harness::proxy('GET', 'drop?match=' . rawurlencode($tracking))['requests'];
        $this->assertSame(
            [[true, false, 200], [false, true, 200]],
            array_map(fn ($r) => [$r['dropped'], $r['replayed'], $r['status']], $requests),
        );
        $this->assertNotEmpty($requests[0]['idempotencyKey']);
        $this->assertSame($requests[0]['idempotencyKey'], $requests[1]['idempotencyKey']);
        $this->assertSame(3, self::$client->inventory->listStock(['productId' => $product->id])->items[0]->onHand);
    }

    public function testLogsInRefreshesBeforeExpiryAndRotatesTheRefreshToken(): void
    {
        // Refreshing 3600 s before expiry makes every call after the login refresh first (tokens live 1 hour).
        $user = new WarehouseClient([
            'base_url' => Harness::env('WAREHOUSE_BASE_URL'),
            'email' => Harness::env('WAREHOUSE_EMAIL'),
            'password' => Harness::env('WAREHOUSE_PASSWORD'),
            'tenant_id' => Harness::env('WAREHOUSE_TENANT_ID'),
            'refresh_before_expiry' => 3600,
        ]);
        Harness::proxy('DELETE', 'log');
        $this->assertSame('user', $user->auth->me()['type']);
        $user->products->list(['pageSize' => 1]);
        // A second refresh only succeeds with the rotated token: reusing the first would revoke the login.
        $user->products->list(['pageSize' => 1]);
        $calls = array_map(fn ($e) => "{$e['method']} " . explode('?', $e['path'])[0] . " {$e['status']}", Harness::proxy('GET', 'log'));
        $this->assertSame([
            'POST /api/v1/auth/login 200',
            'GET /api/v1/auth/me 200',
            'POST /api/v1/auth/refresh 200',
            'GET /api/v1/products 200',
            'POST /api/v1/auth/refresh 200',
            'GET /api/v1/products 200',
        ], $calls);
    }

    /**
     * A new product with `$quantity` units at a new location.
     *
     * @return array{0: Product, 1: \Warehouse\Api\Generated\Location, 2: \Warehouse\Api\Generated\AdjustmentResult} product, location, adjustment
     */
    private static function stockedProduct(int $quantity): array
    {
        $client = self::$client;
        $u = Harness::unique();
        $warehouse = $client->warehouses->create(['code' => "WH-{$u}", 'name' => 'Feed']);
        $location = $client->locations->create(['warehouseId' => $warehouse['id'], 'code' => "B-{$u}", 'name' => 'Bin', 'type' => 'bin']);
        $product = $client->products->create(['sku' => "ST-{$u}", 'name' => 'Stocked']);
        $adjusted = $client->inventory->adjust(['productId' => $product['id'], 'locationId' => $location['id'], 'quantity' => $quantity, 'reason' => 'received']);
        return [$product, $location, $adjusted];
    }

    public function testHoldsStockListsTheHoldAndReleasesIt(): void
    {
        $client = self::$client;
        [$product, $location] = self::stockedProduct(10);
        $reference = "cart-{$product['sku']}";
        $hold = $client->inventory->createHold([
            'productId' => $product['id'],
            'quantity' => 4,
            'locationId' => $location['id'],
            'expiresAt' => gmdate('Y-m-d\TH:i:s\Z', time() + 3600),
            'reference' => $reference,
        ]);
        $this->assertSame([$product['id'], 4, 'active'], [$hold['productId'], $hold['quantity'], $hold['status']]);
        $held = $client->inventory->listStock(['productId' => $product['id']])->items[0];
        $this->assertSame([10, 6], [$held['onHand'], $held['available']]);
        $this->assertSame([$hold['id']], array_column($client->inventory->listHolds(['reference' => $reference])->items, 'id'));

        $released = $client->inventory->releaseHold($hold['id']);
        $this->assertSame([$hold['id'], 'released'], [$released['id'], $released['status']]);
        $freed = $client->inventory->listStock(['productId' => $product['id']])->items[0];
        $this->assertSame([10, 10], [$freed['onHand'], $freed['available']]);
    }

    public function testFollowsTheEventsFeedFromAStoredCursorEveryLaterEventOnce(): void
    {
        $client = self::$client;
        $type = 'inventory.adjusted';
        $caughtUp = $client->events->iterate(['type' => $type]);
        iterator_to_array($caughtUp, false);
        $stored = $caughtUp->cursor();
        $this->assertNotEmpty($stored);

        [$product, $location] = self::stockedProduct(1);
        for ($i = 0; $i < 4; $i++) {
            $client->inventory->adjust(['productId' => $product['id'], 'locationId' => $location['id'], 'quantity' => 1, 'reason' => 'received']);
        }
        // Pages of 2 events; the reader stops after the third event (inside the second page) and restarts.
        $first = $client->events->iterate(['after' => $stored, 'type' => $type, 'limit' => 2]);
        $seen = [];
        foreach ($first as $event) {
            $seen[] = $event['id'];
            if (count($seen) === 3) {
                break;
            }
        }
        $resumed = $client->events->iterate(['after' => $first->cursor(), 'type' => $type, 'limit' => 2]);
        foreach ($resumed as $event) {
            $seen[] = $event['id'];
        }

        $this->assertCount(5, $seen);
        $this->assertCount(5, array_unique($seen));
        $this->assertSame([], iterator_to_array($client->events->iterate(['after' => $resumed->cursor(), 'type' => $type]), false));
    }

    public function testReadsStockAsItWasAtAnInstant(): void
    {
        $client = self::$client;
        [$product, $location, $adjusted] = self::stockedProduct(10);
        $client->inventory->adjust(['productId' => $product['id'], 'locationId' => $location['id'], 'quantity' => 5, 'reason' => 'received']);
        $then = $client->inventory->listStock(['productId' => $product['id'], 'asOf' => $adjusted['movement']['createdAt']])->items;
        $this->assertSame([[$product['id'], 10]], array_map(fn ($level): array => [$level->productId, $level->onHand], $then));
        $this->assertSame(15, $client->inventory->listStock(['productId' => $product['id']])->items[0]['onHand']);
    }

    public function testCarriesTheConsistencyTokenOfTheLastResponseIntoTheNextRequest(): void
    {
        Harness::proxy('POST', 'consistency-token', ['value' => 'U0hBUkRfMC4wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMA']);
        self::$client->products->list(['pageSize' => 1]);
        Harness::proxy('DELETE', 'log');
        self::$client->products->list(['pageSize' => 1]);
        $this->assertSame('U0hBUkRfMC4wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMC0wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMA', Harness::proxy('GET', 'log')[0]['consistencyToken']);
    }

    public function testDropsAConsistencyTokenSealedUnderARotatedKeyAndHealsInOneCall(): void
    {
        // The harness seals this token with the server's code under the key it had before WEBHOOK_SECRET_KEY rotated.
        $rotated = Harness::env('WAREHOUSE_ROTATED_CONSISTENCY_TOKEN');
        Harness::proxy('POST', 'consistency-token', ['value' => $rotated]);
        self::$client->products->list(['pageSize' => 1]);
        Harness::proxy('DELETE', 'log');
        $this->assertNotEmpty(self::$client->products->list(['pageSize' => 1])->items);
        [$refused, $retried] = Harness::proxy('GET', 'log');
        $this->assertSame([$rotated, 400], [$refused['consistencyToken'], $refused['status']]);
        $this->assertSame([null, 200], [$retried['consistencyToken'], $retried['status']]);
        // The next call carries the token the healed answer sealed under the current key.
        Harness::proxy('DELETE', 'log');
        self::$client->products->list(['pageSize' => 1]);
        $next = Harness::proxy('GET', 'log')[0];
        $this->assertSame(200, $next['status']);
        $this->assertNotNull($next['consistencyToken']);
        $this->assertNotSame($rotated, $next['consistencyToken']);
    }

    public function testVerifiesAWebhookSignatureAndRefusesATamperedOne(): void
    {
        $webhook = self::$client->webhooks->create(['url' => Harness::env('WAREHOUSE_WEBHOOK_URL'), 'events' => ['product.created']]);
        self::$client->webhooks->test($webhook['id']);
        $deliveries = Harness::proxy('GET', 'webhooks?type=webhook.test&wait=30');
        $this->assertNotEmpty($deliveries, 'no webhook delivery arrived within 30 s');
        ['body' => $body, 'headers' => $headers] = $deliveries[0];

        $event = Webhook::verify($webhook['secret'], $body, $headers);
        $this->assertSame('webhook.test', $event['type']);
        $this->assertSame($webhook['id'], $event['data']['webhookId']);

        $tampered = str_replace('webhook.test', 'webhook.fake', $body);
        $this->assertRefused(fn () => Webhook::verify($webhook['secret'], $tampered, $headers));
        $stale = ['webhook-timestamp' => (string) (time() - 600)] + $headers;
        $this->assertRefused(fn () => Webhook::verify($webhook['secret'], $body, $stale));
    }

    public function testReadsAnOrdersEventFromAVerifiedWebhookDeliveryAndFromTheFeedTypedPerEvent(): void
    {
        $client = self::$client;
        $type = 'order.created';
        $caughtUp = $client->events->iterate(['type' => $type]);
        iterator_to_array($caughtUp, false);
        $webhook = $client->webhooks->create(['url' => Harness::env('WAREHOUSE_WEBHOOK_URL'), 'events' => [$type]]);
        [$product] = self::stockedProduct(5);
        $order = $client->orders->createSales([
            'customerId' => '0193a2b0-0000-7000-8000-0000000000c2',
            'lines' => [['productId' => $product['id'], 'quantity' => 2, 'price' => 3]],
            'shippingAddress' => ['street' => '1 Main St', 'city' => 'Springfield', 'zip' => '12345'],
        ]);

        $ours = array_values(array_filter(
            Harness::proxy('GET', 'webhooks?type=order.created&wait=60'),
            fn (array $delivery): bool => str_contains($delivery['body'], $order['id']),
        ));
        $this->assertNotEmpty($ours, 'no order.created delivery of the order arrived within 60 s');
        $event = Webhook::verify($webhook['secret'], $ours[0]['body'], $ours[0]['headers']);
        $this->assertInstanceOf(OrderCreatedWebhookBody::class, $event);
        $this->assertSame($order->number, $event->data->number);
        $this->assertSame(2, $event->data->lines[0]->quantity);

        $item = $client->events->iterate(['after' => $caughtUp->cursor(), 'type' => $type])->getIterator()->current();
        $this->assertInstanceOf(OrderCreatedEvent::class, $item);
        $this->assertSame($order->number, $item->data->number);
        $this->assertSame($ours[0]['headers']['webhook-id'], $item->id);
    }

    private function assertRefused(callable $verify): void
    {
        try {
            $verify();
            $this->fail('the delivery was accepted');
        } catch (WebhookVerificationException) {
            $this->addToAssertionCount(1);
        }
    }

    /** Last: the harness spent this tenant's budget when the run began, so the wait is the rest of that minute. */
    public function testWaitsOutAStarterTenants429ThroughRetryAfter(): void
    {
        $config = ['base_url' => Harness::env('WAREHOUSE_BASE_URL'), 'api_key' => Harness::env('WAREHOUSE_STARTER_API_KEY')];
        $impatient = new WarehouseClient($config + ['max_retries' => 0]);
        $refused = null;
        for ($i = 0; $i < 200 && $refused === null; $i++) {
            try {
                $impatient->products->list(['pageSize' => 1]);
            } catch (RateLimitException $error) {
                $refused = $error;
            }
        }
        $this->assertNotNull($refused);
        $this->assertSame('RATE_LIMITED', $refused->getErrorCode());
        $this->assertGreaterThan(0, $refused->getRetryAfter());

        $patient = new WarehouseClient($config);
        $started = microtime(true);
        $page = $patient->products->list(['pageSize' => 1]);
        $this->assertInstanceOf(Page::class, $page);
        $this->assertSame(1, $page->page);
        $this->assertGreaterThanOrEqual($refused->getRetryAfter() - 1, microtime(true) - $started);
    }
}
