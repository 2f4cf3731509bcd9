import { eq } from "drizzle-orm";
import type { PlatformScope } from "../db/client";
import { memberships } from "../db/schema/platform";
import { notFound } from "../http/errors";
import { membersOf } from "./records";

/** `GET /users/{id}`, and the 404 of every operation on one member. */
export async function getMember(scope: PlatformScope, userId: string) {
  const [member] = await membersOf(scope, eq(memberships.userId, userId));
  if (!member) throw notFound("User");
  return member;
}
