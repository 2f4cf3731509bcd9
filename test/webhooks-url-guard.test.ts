import { describe, expect, it } from "vitest";
import { assertDeliverableUrl, isPublicAddress } from "../src/webhooks/url-guard";

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
  ])("refuses a host resolving to %s (%s)", async (address) => {
    expect(isPublicAddress(address)).toBe(false);
    await expect(
      assertDeliverableUrl("https://hooks.example.com/x", {
        allowLocal: false,
        resolve: resolvingTo(address),
      }),
    ).rejects.toMatchObject({ errors: ["url: host hooks.example.com resolves to a non-public address"] });
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
});
