<?php

declare(strict_types=1);

namespace Warehouse\Api;

use Warehouse\Api\Generated\WebhookEvent;

/** Verifies webhook deliveries (Standard Webhooks). */
final class Webhook
{
    public const TOLERANCE_SECONDS = 300;

    /**
     * Verifies a delivery and returns its body as the class its `type` names (`OrderCreatedWebhookBody`, whose `data`
     * is an `Order`; `UnknownWebhookEvent` for a type this version does not know). HMAC-SHA256 of
     * "{webhook-id}.{webhook-timestamp}.{body}" with the `whsec_...` secret, compared with each `v1,<base64>`
     * signature of `webhook-signature` (several during a secret rotation), and a timestamp within 5 minutes.
     * Pass the body exactly as received (`file_get_contents('php://input')`), before any JSON decoding.
     *
     * @param array<string, string|list<string>> $headers any case; PSR-7 style lists are accepted
     * @throws WebhookVerificationException when it is forged, altered or stale
     */
    public static function verify(string $secret, string $rawBody, array $headers, ?int $now = null): WebhookEvent
    {
        $normalized = [];
        foreach ($headers as $name => $value) {
            $normalized[strtolower((string) $name)] = is_array($value) ? implode(' ', $value) : (string) $value;
        }
        $id = $normalized['webhook-id'] ?? throw new WebhookVerificationException('missing webhook-id header');
        $timestamp = $normalized['webhook-timestamp'] ?? throw new WebhookVerificationException('missing webhook-timestamp header');
        $signatures = $normalized['webhook-signature'] ?? throw new WebhookVerificationException('missing webhook-signature header');
        if (!ctype_digit($timestamp)) {
            throw new WebhookVerificationException('webhook-timestamp is not a number');
        }
        if (abs(($now ?? time()) - (int) $timestamp) > self::TOLERANCE_SECONDS) {
            throw new WebhookVerificationException('webhook-timestamp is more than 5 minutes off');
        }
        $key = base64_decode(str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret, true);
        if ($key === false) {
            throw new WebhookVerificationException('the secret is not base64');
        }
        $expected = base64_encode(hash_hmac('sha256', "{$id}.{$timestamp}.{$rawBody}", $key, true));
        foreach (explode(' ', $signatures) as $signature) {
            [$version, $value] = array_pad(explode(',', $signature, 2), 2, '');
            if ($version === 'v1' && hash_equals($expected, $value)) {
                return WebhookEvent::fromArray(json_decode($rawBody, true, 512, JSON_THROW_ON_ERROR));
            }
        }
        throw new WebhookVerificationException('no signature matches');
    }
}
