import { eq } from "drizzle-orm";
import type { DatabaseBindings } from "../../db/bindings";
import { platformDb } from "../../db/client";
import { tenantMoves } from "../../db/schema/platform";
import { notFound } from "../../http/errors";
import { moveRecord } from "./records";

/** `GET /platform/moves/{id}`: a move's progress. */
export async function findMove(env: DatabaseBindings, id: string) {
  const [row] = await platformDb(env).select().from(tenantMoves).where(eq(tenantMoves.id, id));
  if (!row) throw notFound("Move");
  return moveRecord(row);
}
