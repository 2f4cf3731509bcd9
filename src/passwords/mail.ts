import type { Mail } from "../mail/mail";
import { RESET_TTL_MS } from "./reset";

/** The reset mail: the only place its token ever goes. */
export function resetMail(to: string, link: string): Mail {
  return {
    to,
    subject: "Reset your password",
    link,
    text: [
      "Someone (hopefully you) asked to reset the password of this account.",
      "",
      "Open this link to choose a new password:",
      link,
      "",
      `The link works once, for ${RESET_TTL_MS / 60_000} minutes. Setting a new password signs out every session.`,
      "If you did not ask, ignore this mail: your password stays as it is.",
    ].join("\n"),
  };
}
