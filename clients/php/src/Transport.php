<?php

declare(strict_types=1);

namespace Warehouse\Api;

use Warehouse\Api\Generated\Version;
use Warehouse\Api\Resources\Operations;

/**
 * Sends every call with ext-curl: credentials, tenant, Idempotency-Key, Consistency-Token, the User-Agent, the call's
 * deadline and each attempt's timeout, and the retries (429 after a capped Retry-After; 500/502/503/504 and network
 * errors with backoff when a repeat is safe).
 * @internal
 */
final class Transport
{
    // Answers that say the server failed or is unavailable: repeated only when repeating is safe.
    private const RETRYABLE_STATUS = [500, 502, 503, 504];

    private readonly string $baseUrl;
    private readonly \CurlHandle $curl;
    private ?string $consistencyToken = null;
    private ?string $accessToken = null;
    private ?string $refreshToken = null;
    private float $expiresAt = 0.0;

    /** @param array{base_url: string, api_key?: string, email?: string, password?: string, tenant_id?: string, platform_token?: string, timeout?: float, attempt_timeout?: float, max_retries?: int, max_retry_after?: float, refresh_before_expiry?: float} $config */
    public function __construct(private readonly array $config)
    {
        if (empty($config['api_key']) && (empty($config['email']) || empty($config['password'])) && empty($config['platform_token'])) {
            throw new \InvalidArgumentException('WarehouseClient needs api_key, or email and password (and tenant_id), or platform_token');
        }
        $base = rtrim($config['base_url'], '/');
        $this->baseUrl = str_ends_with($base, '/api/v1') ? substr($base, 0, -strlen('/api/v1')) : $base;
        // One handle for every request, so connections are kept alive between calls.
        $this->curl = curl_init();
    }

    /**
     * Sends one operation, retrying as its retry class allows, and returns the envelope's `data`.
     *
     * @param list<string> $path
     * @param array<string, mixed> $query
     * @param array<string, mixed>|list<mixed>|string|null $body
     * @param array<string, mixed> $options `idempotency_key`, `timeout` (this call's deadline in seconds)
     * @param array<string, ?string> $headers
     * @param ?string $download the media types a file operation answers (sent as Accept): its bytes are returned as is
     */
    public function call(
        string $operationId,
        array $path = [],
        array $query = [],
        array|string|null $body = null,
        array $options = [],
        array $headers = [],
        bool $paged = false,
        bool $csv = false,
        ?string $download = null,
    ): mixed {
        [$method, $template, $access, $retry] = Operations::ALL[$operationId] ?? JobFiles::OPERATIONS[$operationId];
        $url = $this->url($template, $path, $query);
        $fixed = ['Accept' => $download ?? ($csv ? 'text/csv' : 'application/json'), 'User-Agent' => self::userAgent()]
            + array_filter($headers, fn ($v) => $v !== null);
        $payload = null;
        if (is_string($body)) {
            $payload = $body;
            $fixed += ['Content-Type' => 'text/csv']; // an upload names its own (NDJSON)
        } elseif ($body !== null) {
            $payload = json_encode($body === [] ? new \stdClass() : $body, JSON_THROW_ON_ERROR | JSON_PRESERVE_ZERO_FRACTION);
            $fixed['Content-Type'] = 'application/json';
        }
        if ($retry === 'idempotency-key') {
            $fixed['Idempotency-Key'] = $options['idempotency_key'] ?? self::uuid();
        }

        $deadline = microtime(true) + (float) ($options['timeout'] ?? $this->config['timeout'] ?? 60.0);
        $reauthenticated = false;
        $tokenDropped = false;
        for ($attempt = 0; ; ) {
            $attemptTimeout = min((float) ($this->config['attempt_timeout'] ?? 30.0), $deadline - microtime(true));
            $sent = $this->headersFor($operationId, $access) + $fixed;
            $answer = $attemptTimeout <= 0
                ? ['status' => 0, 'headers' => [], 'body' => '', 'errno' => CURLE_OPERATION_TIMEDOUT, 'error' => '']
                : $this->send($method, $url, $sent, $payload, $attemptTimeout);
            if ($answer['status'] === 0) {
                $failure = $answer['errno'] === CURLE_OPERATION_TIMEDOUT
                    ? new ApiTimeoutException(0, 'TIMEOUT', sprintf('No response within %.1f s', max(0.0, $attemptTimeout)))
                    : new ApiConnectionException(0, 'NETWORK_ERROR', "Network error: {$answer['error']}");
                if ($retry === 'refused-only') {
                    throw $failure;
                }
                $this->pause($attempt, self::backoff($attempt), $deadline, $failure);
                $attempt++;
                continue;
            }
            $headersIn = $answer['headers'];
            if (isset($headersIn['consistency-token'])) {
                $this->consistencyToken = $headersIn['consistency-token'];
            }
            if ($answer['status'] >= 200 && $answer['status'] < 300) {
                return $download !== null ? $answer['body'] : $this->result($answer, $paged, $csv);
            }
            if ($answer['status'] === 401 && $this->usesSession() && $access !== 'public' && !$reauthenticated) {
                // The access token was refused (revoked, or expired early): renew it once and repeat.
                $reauthenticated = true;
                $this->expiresAt = 0.0;
                continue;
            }
            $error = self::error($answer);
            if (!$tokenDropped && $this->dropRefusedToken($error, $sent)) {
                // Refused before anything ran, so any operation may go again: once, without the token.
                $tokenDropped = true;
                continue;
            }
            if ($answer['status'] === 429) {
                $wait = $error->getRetryAfter() ?? self::backoff($attempt);
                if ($wait > (float) ($this->config['max_retry_after'] ?? 60.0)) {
                    throw $error;
                }
                $this->pause($attempt, $wait, $deadline, $error);
                $attempt++;
                continue;
            }
            if (in_array($answer['status'], self::RETRYABLE_STATUS, true) && $retry !== 'refused-only') {
                $this->pause($attempt, self::backoff($attempt), $deadline, $error);
                $attempt++;
                continue;
            }
            throw $error;
        }
    }

    /**
     * Forgets the stored Consistency-Token when the server refused the one `$sent` carried (a 400 naming the header:
     * sealed under a key the server no longer has, or for another tenant), so the call can go again without it.
     *
     * @param array<string, string> $sent
     */
    private function dropRefusedToken(WarehouseApiException $error, array $sent): bool
    {
        $token = $sent['Consistency-Token'] ?? null;
        if ($error->getStatus() !== 400 || $token === null || $token !== $this->consistencyToken) {
            return false;
        }
        foreach ($error->getErrors() as $message) {
            if (str_starts_with($message, 'Consistency-Token:')) {
                $this->consistencyToken = null;
                return true;
            }
        }
        return false;
    }

    /** Waits before the next attempt; throws `$error` instead when the retries are spent or the wait would end past the deadline. */
    private function pause(int $attempt, float $seconds, float $deadline, WarehouseApiException $error): void
    {
        if ($attempt >= ($this->config['max_retries'] ?? 3) || microtime(true) + $seconds >= $deadline) {
            throw $error;
        }
        usleep((int) ($seconds * 1e6));
    }

    /** `warehouse-api-php/1.0.0 (PHP 8.2.7)`: which client and runtime sent a request, for support. */
    public static function userAgent(): string
    {
        return 'warehouse-api-php/' . Version::CLIENT . ' (PHP ' . PHP_VERSION . ')';
    }

    /**
     * Every item of a paged operation, fetching page after page until `totalPages`.
     *
     * @param callable(int): Page $fetchPage
     * @return \Generator<int, array<string, mixed>>
     */
    public function iterate(callable $fetchPage): \Generator
    {
        for ($page = 1; ; $page++) {
            $result = $fetchPage($page);
            foreach ($result->items as $item) {
                yield $item;
            }
            if ($page >= $result->totalPages) {
                return;
            }
        }
    }

    private function usesSession(): bool
    {
        return empty($this->config['api_key']) && !empty($this->config['email']) && !empty($this->config['password']);
    }

    /** @return array<string, string> */
    private function headersFor(string $operationId, string $access): array
    {
        if ($access === 'public') {
            return [];
        }
        if ($access === 'platform') {
            $token = $this->config['platform_token'] ?? throw new \LogicException("{$operationId} needs the platform_token option");
            return ['Authorization' => "Bearer {$token}"];
        }
        $headers = [];
        if (!empty($this->config['api_key'])) {
            $headers['X-API-Key'] = $this->config['api_key'];
        } elseif ($this->usesSession()) {
            $headers['Authorization'] = 'Bearer ' . $this->accessToken();
            if (!empty($this->config['tenant_id'])) {
                $headers['X-Tenant-Id'] = $this->config['tenant_id'];
            }
        }
        if ($this->consistencyToken !== null) {
            $headers['Consistency-Token'] = $this->consistencyToken;
        }
        return $headers;
    }

    /**
     * A valid access token: logs in on first use, refreshes `refresh_before_expiry` seconds (60) before it expires
     * keeping the rotated refresh token, and logs in again when the refresh token is no longer accepted.
     */
    private function accessToken(): string
    {
        $margin = (float) ($this->config['refresh_before_expiry'] ?? 60);
        if ($this->accessToken !== null && microtime(true) < $this->expiresAt - $margin) {
            return $this->accessToken;
        }
        $session = null;
        if ($this->refreshToken !== null) {
            try {
                $session = $this->call('refreshSession', body: ['refreshToken' => $this->refreshToken]);
            } catch (WarehouseApiException $error) {
                // A refresh token that was used, revoked or expired: start a new login.
                if ($error->getStatus() !== 401) {
                    throw $error;
                }
            }
        }
        $session ??= $this->call('login', body: ['email' => $this->config['email'], 'password' => $this->config['password']]);
        $this->accessToken = $session['token'];
        $this->refreshToken = $session['refreshToken'];
        $this->expiresAt = (float) (new \DateTimeImmutable($session['expiresAt']))->format('U.u');
        return $this->accessToken;
    }

    /**
     * @param list<string> $path
     * @param array<string, mixed> $query
     */
    private function url(string $template, array $path, array $query): string
    {
        foreach ($path as $value) {
            $template = preg_replace('/\{[^}]+\}/', rawurlencode($value), $template, 1);
        }
        $pairs = [];
        foreach ($query as $name => $value) {
            if ($value === null) {
                continue;
            }
            $pairs[$name] = is_bool($value) ? ($value ? 'true' : 'false') : $value;
        }
        return $this->baseUrl . $template . ($pairs === [] ? '' : '?' . http_build_query($pairs, '', '&', PHP_QUERY_RFC3986));
    }

    /**
     * @param array<string, string> $headers
     * @return array{status: int, headers: array<string, string>, body: string, errno: int, error: string}
     */
    private function send(string $method, string $url, array $headers, ?string $payload, float $timeout): array
    {
        $received = [];
        curl_reset($this->curl);
        curl_setopt_array($this->curl, [
            CURLOPT_URL => $url,
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => max(1, (int) ($timeout * 1000)),
            CURLOPT_HTTPHEADER => array_map(fn ($name, $value) => "{$name}: {$value}", array_keys($headers), $headers),
            CURLOPT_HEADERFUNCTION => function ($curl, string $line) use (&$received): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $received[strtolower(trim($parts[0]))] = trim($parts[1]);
                }
                return strlen($line);
            },
        ]);
        if ($payload !== null) {
            curl_setopt($this->curl, CURLOPT_POSTFIELDS, $payload);
        }
        $body = curl_exec($this->curl);
        if ($body === false) {
            return ['status' => 0, 'headers' => [], 'body' => '', 'errno' => curl_errno($this->curl), 'error' => curl_error($this->curl)];
        }
        $status = (int) curl_getinfo($this->curl, CURLINFO_RESPONSE_CODE);
        return ['status' => $status, 'headers' => $received, 'body' => (string) $body, 'errno' => 0, 'error' => ''];
    }

    /** @param array{status: int, headers: array<string, string>, body: string} $answer */
    private function result(array $answer, bool $paged, bool $csv): mixed
    {
        if ($csv || !str_starts_with($answer['headers']['content-type'] ?? '', 'application/json')) {
            return $answer['body'];
        }
        $data = json_decode($answer['body'], true, 512, JSON_THROW_ON_ERROR)['data'] ?? null;
        if ($paged) {
            return new Page($data['items'], $data['totalCount'], $data['page'], $data['pageSize'], $data['totalPages'], $data);
        }
        return $data;
    }

    /** @param array{status: int, headers: array<string, string>, body: string} $answer */
    private static function error(array $answer): WarehouseApiException
    {
        $envelope = json_decode($answer['body'], true);
        $envelope = is_array($envelope) ? $envelope : [];
        $message = is_string($envelope['message'] ?? null) ? $envelope['message'] : "HTTP {$answer['status']}";
        $errors = is_array($envelope['errors'] ?? null) ? array_map('strval', $envelope['errors']) : [$message];
        return WarehouseApiException::forStatus(
            $answer['status'],
            $answer['headers']['x-error-code'] ?? "HTTP_{$answer['status']}",
            $message,
            array_values($errors),
            $answer['headers']['x-request-id'] ?? null,
            self::retryAfter($answer['headers']['retry-after'] ?? null),
        );
    }

    private static function retryAfter(?string $value): ?float
    {
        if ($value === null) {
            return null;
        }
        if (is_numeric($value)) {
            return max(0.0, (float) $value);
        }
        $date = strtotime($value);
        return $date === false ? null : max(0.0, (float) ($date - time()));
    }

    /** Exponential backoff with jitter: about 0.5 s, 1 s, 2 s... (at most 8 s), each between half and all of it. */
    private static function backoff(int $attempt): float
    {
        $ceiling = min(8.0, 0.5 * 2 ** $attempt);
        return $ceiling / 2 + (mt_rand() / mt_getrandmax()) * $ceiling / 2;
    }

    private static function uuid(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }
}
