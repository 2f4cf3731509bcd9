import { runsOnDevelopmentSecrets } from "../config/production-guard";
import type { Bindings } from "../env";
import type { Resolver } from "./url-guard";

const DNS_TIMEOUT_MS = 3_000;

interface DohAnswer {
  Answer?: { type: number; data: string }[];
}

/** Resolves A and AAAA records over DNS-over-HTTPS (Workers have no resolver API). */
const resolveOverHttps: Resolver = async (hostname) => {
  const lookups = ["A", "AAAA"].map(async (type) => {
    const response = await fetch(
      `https://cloudflare-dns.com/dns-query?name=${encodeURIComponent(hostname)}&type=${type}`,
      { headers: { accept: "application/dns-json" }, signal: AbortSignal.timeout(DNS_TIMEOUT_MS) },
    );
    if (!response.ok) throw new Error(`DNS query failed: ${response.status}`);
    const body = (await response.json()) as DohAnswer;
    // Type 1 is A, 28 is AAAA; CNAME records (type 5) are followed by the resolver itself.
    return (body.Answer ?? []).filter((a) => a.type === 1 || a.type === 28).map((a) => a.data);
  });
  return (await Promise.all(lookups)).flat();
};

/**
 * The guard's options for this deployment. In development (wrangler dev, tests: no network) host
 * names are checked by their form only and localhost receivers are allowed; deployed, every host
 * is resolved and each of its addresses must be public, even if ENVIRONMENT says development by mistake.
 */
export function urlGuardOptions(env: Bindings) {
  const development = runsOnDevelopmentSecrets(env);
  return {
    allowLocal: development && env.ALLOW_LOCAL_WEBHOOK_URLS === "true",
    resolve: development ? undefined : resolveOverHttps,
  };
}
