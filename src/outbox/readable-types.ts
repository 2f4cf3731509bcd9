import { grants, type Scope } from "../auth/scopes";
import { AppError } from "../http/errors";
import { type FeedType, feedTypes, readScopeOf } from "./catalog";

// Which event types a caller may read: the feed filters by them, and an events export job takes them at creation.

/**
 * The types a caller asked for (names or `family.*`), limited by what its scopes can read: 403 when it
 * names a type it cannot read, or can read none at all.
 */
export function readableTypes(held: readonly Scope[], asked: readonly string[] | undefined): FeedType[] {
  const wanted = asked?.length
    ? feedTypes.filter((type) =>
        asked.some((name) => (name.endsWith(".*") ? type.startsWith(name.slice(0, -1)) : type === name)),
      )
    : feedTypes;
  const refused = [...new Set(wanted.map(readScopeOf).filter((scope) => !grants(held, scope)))];
  if (asked?.length && refused.length > 0) {
    throw new AppError("FORBIDDEN", `These event types need the ${refused.join(" and ")} scope`);
  }
  const readable = wanted.filter((type) => grants(held, readScopeOf(type)));
  if (readable.length === 0) {
    throw new AppError(
      "FORBIDDEN",
      "The events feed needs read:products, read:inventory, read:orders or billing",
    );
  }
  return readable;
}
