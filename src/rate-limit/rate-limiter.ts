import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";

/** One object per tenant: the sliding-window request log (the rate-limiting issue fills this in). */
export class RateLimiter extends DurableObject<Bindings> {}
