import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { urlGuardOptions } from "../src/outbound/dns";
import { assertDeliverableUrl, isPublicAddress } from "../src/outbound/url-guard";

const resolvingTo =
  (...addresses: string[]) =>
  async () =>
    addresses;

describe("webhook URL guard with DNS resolution (as deployed)", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.9", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["240.0.0.1", "reserved"],
    ["0.0.0.0", "unspecified"],
    ["::1", "IPv6 loopback"],
    ["fd00::1", "IPv6 unique local"],
    ["fe80::1", "IPv6 link-local"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:169.254.169.254", "IPv4-mapped link-local"],
    ["192.0.2.1", "IPv4 documentation"],
    ["198.51.100.7", "IPv4 documentation"],
    ["203.0.113.9", "IPv4 documentation"],
    ["198.18.0.1", "IPv4 benchmarking"],
    ["255.255.255.255", "broadcast"],
    // IPv6: only global unicast (2000::/3, less its special blocks) is public (issue #44).
    ["::a9fe:a9fe", "IPv4-compatible link-local (cloud metadata)"],
    ["::7f00:1", "IPv4-compatible loopback"],
    ["::1:0:0:1", "IPv4-compatible space"],
    ["::", "IPv6 unspecified"],
    ["::ffff:0:a00:1", "IPv4-translated (RFC 6145)"],
    ["64:ff9b::a9fe:a9fe", "NAT64 of link-local"],
    ["64:ff9b::808:808", "NAT64 of a public address"],
    ["64:ff9b:1::a00:1", "local-use NAT64"],
    ["2002:a9fe:a9fe::1", "6to4 of link-local"],
    ["2002:808:808::1", "6to4 of a public address"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["fe80::a9fe:a9fe", "IPv6 link-local"],
    ["febf::1", "IPv6 link-local, end of the range"],
    ["fec0::1", "IPv6 site-local (deprecated)"],
    ["fc00::1", "IPv6 unique local"],
    ["fdff:ffff::1", "IPv6 unique local"],
    ["2001:db8::1", "IPv6 documentation"],
    ["3fff::1", "IPv6 documentation (RFC 9637)"],
    ["2001:2::1", "IPv6 benchmarking"],
    ["100::1", "IPv6 discard"],
    ["ff02::1", "IPv6 multicast, link scope"],
    ["ff0e::1", "IPv6 multicast, global scope"],
    ["4000::1", "IPv6 outside global unicast"],
    ["5f00::1", "IPv6 segment routing"],
  ])("refuses a host resolving to %s (%s)", async (address) => {
    expect(isPublicAddress(address)).toBe(false);
    await expect(
      assertDeliverableUrl("https://hooks.example.com/x", {
        allowLocal: false,
        resolve: resolvingTo(address),
      }),
    ).rejects.toMatchObject({ errors: ["url: host hooks.example.com resolves to a non-public address"] });
  });

  it.each([
    ["93.184.216.34"],
    ["2606:4700:4700::1111"],
    ["2a00:1450:4001:81b::200e"],
    ["::ffff:93.184.216.34"],
  ])("takes %s as public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("refuses when any one of several addresses is private (no mixing to slip through)", async () => {
    await expect(
      assertDeliverableUrl("https://hooks.example.com/x", {
        allowLocal: false,
        resolve: resolvingTo("93.184.216.34", "10.0.0.1"),
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("accepts a host whose addresses are all public, and refuses one that does not resolve", async () => {
    const url = await assertDeliverableUrl("https://hooks.example.com/x", {
      allowLocal: false,
      resolve: resolvingTo("93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"),
    });
    expect(url.hostname).toBe("hooks.example.com");
    await expect(
      assertDeliverableUrl("https://nowhere.example.com/x", { allowLocal: false, resolve: resolvingTo() }),
    ).rejects.toMatchObject({ errors: ["url: host nowhere.example.com does not resolve"] });
    await expect(
      assertDeliverableUrl("https://broken.example.com/x", {
        allowLocal: false,
        resolve: async () => {
          throw new Error("SERVFAIL");
        },
      }),
    ).rejects.toMatchObject({ errors: ["url: host broken.example.com could not be resolved"] });
  });

  it("allows http://localhost only when local receivers are allowed", async () => {
    await expect(
      assertDeliverableUrl("http://localhost:8855/hook", { allowLocal: false }),
    ).rejects.toMatchObject({
      errors: ["url: must use https://"],
    });
    expect((await assertDeliverableUrl("http://localhost:8855/hook", { allowLocal: true })).port).toBe(
      "8855",
    );
  });

  it.each([
    ["https://localhost./hook", "trailing dot"],
    ["https://localhost../hook", "trailing dots"],
    ["https://metadata.google.internal./computeMetadata/v1/", "trailing dot on an internal name"],
    ["https://METADATA.Google.Internal./", "upper case and a trailing dot"],
    ["https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/hook", "fullwidth localhost"],
    [
      "https://\uff4d\uff45\uff54\uff41\uff44\uff41\uff54\uff41.google.internal./",
      "fullwidth and a trailing dot",
    ],
    ["https://printer.local./hook", "trailing dot on .local"],
    ["https://intranet./hook", "a single label with a trailing dot"],
    ["https://router.home/hook", "a home-network name"],
    ["https://nas.localdomain./hook", ".localdomain"],
    ["https://api.default.svc/hook", "a Kubernetes service"],
    ["https://1.0.168.192.in-addr.arpa/hook", "a reverse-lookup name"],
  ])("normalises before judging: refuses %s (%s)", async (url) => {
    const asked: string[] = [];
    await expect(
      assertDeliverableUrl(url, {
        allowLocal: false,
        resolve: async (host) => {
          asked.push(host);
          return ["93.184.216.34"];
        },
      }),
    ).rejects.toMatchObject({ errors: ["url: must be a public host name"] });
    expect(asked).toEqual([]);
  });

  it("resolves and returns the normalised name: no trailing dot, lower case, punycode", async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return ["93.184.216.34"];
    };
    const plain = await assertDeliverableUrl("https://Hooks.Example.COM./x?y=1", {
      allowLocal: false,
      resolve,
    });
    expect(plain.href).toBe("https://hooks.example.com/x?y=1");
    const unicode = await assertDeliverableUrl("https://b\u00fccher.example/hook", {
      allowLocal: false,
      resolve,
    });
    expect(unicode.href).toBe("https://xn--bcher-kva.example/hook");
    expect(asked).toEqual(["hooks.example.com", "xn--bcher-kva.example"]);
  });

  it("allows only ports 443 and 8443", async () => {
    const resolve = resolvingTo("93.184.216.34");
    for (const port of ["6379", "22", "80", "8080", "65535"]) {
      await expect(
        assertDeliverableUrl(`https://hooks.example.com:${port}/x`, { allowLocal: false, resolve }),
      ).rejects.toMatchObject({ errors: ["url: must use port 443 (the default) or 8443"] });
    }
    for (const port of ["", ":443", ":8443"]) {
      const url = await assertDeliverableUrl(`https://hooks.example.com${port}/x`, {
        allowLocal: false,
        resolve,
      });
      expect(url.hostname).toBe("hooks.example.com");
    }
  });

  it("keeps any port for http://localhost receivers in development, trailing dot or not", async () => {
    expect((await assertDeliverableUrl("http://localhost:6379/hook", { allowLocal: true })).port).toBe(
      "6379",
    );
    expect((await assertDeliverableUrl("http://localhost.:8855/hook", { allowLocal: true })).href).toBe(
      "http://localhost:8855/hook",
    );
  });
});

describe("which guard a deployment runs", () => {
  it("skips DNS and admits localhost receivers only on the development secrets, not on ENVIRONMENT alone", async () => {
    const development = urlGuardOptions(env);
    expect(development.resolve).toBeUndefined();
    expect((await assertDeliverableUrl("http://localhost:6379/hook", development)).port).toBe("6379");

    // A deploy that carries ENVIRONMENT=development (and the local-receiver switch) with real secrets.
    const misconfigured = urlGuardOptions({
      ...env,
      JWT_SECRET: "a-real-jwt-secret-of-at-least-thirty-two-chars",
      PLATFORM_ADMIN_TOKEN: "a-real-platform-token-of-at-least-thirty-two",
      WEBHOOK_SECRET_KEY: "a-real-webhook-key-of-at-least-thirty-two-chars",
    });
    expect(env.ENVIRONMENT).toBe("development");
    expect(typeof misconfigured.resolve).toBe("function");
    await expect(assertDeliverableUrl("http://localhost:6379/hook", misconfigured)).rejects.toMatchObject({
      errors: ["url: must use https://"],
    });
  });
});
