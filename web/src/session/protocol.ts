import type { Schemas } from "../api/client";

/** What the page may know of a session: never the refresh token, which stays in the session worker. */
export type PageSession = Omit<Schemas["Session"], "refreshToken">;

export type SessionRequest =
  | { op: "signIn"; email: string; password: string }
  | { op: "acceptInvitation"; token: string; name: string; password: string }
  | { op: "refresh" }
  | { op: "signOut" };

export type SessionReply =
  | { ok: true; session: PageSession | null }
  | { ok: false; message: string; status: number; errors: string[] };
