import type { D1Migration } from "@cloudflare/vitest-plugin";
import type { Bindings } from "../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_PLATFORM_MIGRATIONS: D1Migration[];
      TEST_SHARD_MIGRATIONS: D1Migration[];
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index");
    }
  }
}
