import type { carrierSettings } from "../../db/schema/tenant";
import { decryptSecret } from "../../outbound/secrets";
import type { Resolver } from "../../outbound/url-guard";
import type { CarrierAdapter } from "./carrier";
import { httpCarrier } from "./http";
import { manualCarrier } from "./manual";

/** The adapter that labels a shipment: its carrier code's configured label service, else the manual carrier. */
export async function carrierAdapterFor(
  setting: typeof carrierSettings.$inferSelect | undefined,
  secretKey: string,
  guard: { allowLocal: boolean; resolve?: Resolver },
): Promise<CarrierAdapter> {
  if (!setting) return manualCarrier;
  const secret = await decryptSecret(secretKey, setting.secretCiphertext);
  return httpCarrier({ code: setting.code, url: setting.url, secret }, guard);
}
