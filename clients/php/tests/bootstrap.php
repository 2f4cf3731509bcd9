<?php

declare(strict_types=1);

// The tests load the package from this checkout with the PSR-4 rule composer.json declares (no Composer needed),
// and reach the harness (clients/harness/run.mjs) through WAREHOUSE_* variables.
spl_autoload_register(function (string $class): void {
    $prefix = 'Warehouse\\Api\\';
    if (str_starts_with($class, $prefix)) {
        require __DIR__ . '/../src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    }
});

final class Harness
{
    public static function env(string $name): string
    {
        $value = getenv($name);
        if ($value === false || $value === '') {
            throw new RuntimeException("{$name} is not set: run the client tests with npm run test:clients");
        }
        return $value;
    }

    public static function unique(): string
    {
        return strtoupper(base_convert((string) (int) (microtime(true) * 1000), 10, 36) . bin2hex(random_bytes(2)));
    }

    /** Answers the next `times` requests whose `METHOD /path` contains `match` with `status` (or, with `hang`, never). */
    public static function fault(string $match, int $status = 500, int $times = 1, ?int $retryAfter = null, bool $hang = false): void
    {
        self::proxy('POST', 'fault', ['match' => $match, 'status' => $status, 'times' => $times, 'hang' => $hang]
            + ($retryAfter === null ? [] : ['retryAfter' => $retryAfter]));
    }

    /** How many requests matched the fault (answered by it, or forwarded after it ran out). */
    public static function faultSeen(string $match): int
    {
        return self::proxy('GET', 'fault?match=' . rawurlencode($match))['seen'];
    }

    /** Calls the proxy's controls (see clients/harness/proxy.mjs). */
    public static function proxy(string $method, string $path, ?array $body = null): mixed
    {
        $curl = curl_init(self::env('WAREHOUSE_BASE_URL') . '/__harness/' . $path);
        curl_setopt_array($curl, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT => 60,
            CURLOPT_HTTPHEADER => $body === null ? [] : ['Content-Type: application/json'],
        ]);
        if ($body !== null) {
            curl_setopt($curl, CURLOPT_POSTFIELDS, json_encode($body));
        }
        $answer = curl_exec($curl);
        if ($answer === false) {
            throw new RuntimeException('proxy: ' . curl_error($curl));
        }
        return json_decode((string) $answer, true, 512, JSON_THROW_ON_ERROR);
    }
}
