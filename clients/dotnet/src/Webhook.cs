using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;

namespace Warehouse.Api
{
    /// <summary>A webhook delivery whose signature does not match, or whose timestamp is more than 5 minutes off.</summary>
    public sealed class WebhookVerificationException : Exception
    {
        public WebhookVerificationException(string message) : base(message) { }
    }

    /// <summary>Verifies webhook deliveries (Standard Webhooks).</summary>
    public static class Webhook
    {
        public static readonly TimeSpan Tolerance = TimeSpan.FromMinutes(5);

        /// <summary>
        /// Verifies a delivery and returns its body as the class its <c>type</c> names (<c>OrderCreatedWebhookBody</c>,
        /// whose <c>Data</c> is an <c>Order</c>; <c>UnknownWebhookEvent</c> for a type this version does not know): HMAC-SHA256 of
        /// "{webhook-id}.{webhook-timestamp}.{body}" with the <c>whsec_...</c> secret, compared with each
        /// <c>v1,&lt;base64&gt;</c> signature of <c>webhook-signature</c> (several during a secret rotation), and a
        /// timestamp within 5 minutes. Pass the body exactly as received, before any JSON parsing.
        /// </summary>
        /// <exception cref="WebhookVerificationException">When it is forged, altered or stale.</exception>
        public static Models.WebhookEvent Verify(string secret, string rawBody, string webhookId, string webhookTimestamp,
            string webhookSignature, DateTimeOffset? now = null)
        {
            if (webhookId == null || webhookTimestamp == null || webhookSignature == null)
            {
                throw new WebhookVerificationException("missing webhook-id, webhook-timestamp or webhook-signature header");
            }
            long sentAt;
            if (!long.TryParse(webhookTimestamp, out sentAt)) throw new WebhookVerificationException("webhook-timestamp is not a number");
            var age = (now ?? DateTimeOffset.UtcNow).ToUnixTimeSeconds() - sentAt;
            if (Math.Abs(age) > Tolerance.TotalSeconds) throw new WebhookVerificationException("webhook-timestamp is more than 5 minutes off");

            byte[] key;
            try
            {
                key = Convert.FromBase64String(secret.StartsWith("whsec_", StringComparison.Ordinal) ? secret.Substring(6) : secret);
            }
            catch (FormatException)
            {
                throw new WebhookVerificationException("the secret is not base64");
            }
            byte[] expected;
            using (var hmac = new HMACSHA256(key))
            {
                expected = hmac.ComputeHash(Encoding.UTF8.GetBytes(webhookId + "." + webhookTimestamp + "." + rawBody));
            }
            foreach (var signature in webhookSignature.Split(' '))
            {
                var comma = signature.IndexOf(',');
                if (comma < 0 || signature.Substring(0, comma) != "v1") continue;
                byte[] given;
                try { given = Convert.FromBase64String(signature.Substring(comma + 1)); }
                catch (FormatException) { continue; }
                if (FixedTimeEquals(expected, given)) return Models.WebhookEvent.FromJson((JsonObject)Json.Parse(rawBody));
            }
            throw new WebhookVerificationException("no signature matches");
        }

        /// <summary>The same, reading the three headers from a dictionary (any case).</summary>
        public static Models.WebhookEvent Verify(string secret, string rawBody, IDictionary<string, string> headers, DateTimeOffset? now = null)
        {
            var byName = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
            foreach (var header in headers) byName[header.Key] = header.Value;
            string id, timestamp, signature;
            byName.TryGetValue("webhook-id", out id);
            byName.TryGetValue("webhook-timestamp", out timestamp);
            byName.TryGetValue("webhook-signature", out signature);
            return Verify(secret, rawBody, id, timestamp, signature, now);
        }

        private static bool FixedTimeEquals(byte[] a, byte[] b)
        {
            if (a.Length != b.Length) return false;
            var difference = 0;
            for (var i = 0; i < a.Length; i++) difference |= a[i] ^ b[i];
            return difference == 0;
        }
    }
}
