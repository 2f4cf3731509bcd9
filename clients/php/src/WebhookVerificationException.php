<?php

declare(strict_types=1);

namespace Warehouse\Api;

/** A webhook delivery whose signature does not match, or whose timestamp is more than 5 minutes off. */
final class WebhookVerificationException extends \RuntimeException
{
}
