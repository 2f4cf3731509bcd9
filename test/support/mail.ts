import { vi } from "vitest";
import { sentMail } from "../../src/mail/development";
import type { Mail } from "../../src/mail/mail";

/**
 * The newest mail to `to` that the Worker's development sender recorded (it sends after the response,
 * so this waits for it). `after` skips the mail that was already there.
 */
export function mailTo(to: string, after = 0): Promise<Mail> {
  // vi.waitFor, not expect.poll: it also waits in a beforeAll.
  return vi.waitFor(
    () => {
      const sent = sentMail.filter((mail) => mail.to === to);
      if (sent.length <= after) throw new Error(`no new mail to ${to} yet`);
      return sent.at(-1) as Mail;
    },
    { timeout: 10_000 },
  );
}

/** How many mails went to `to` so far. */
export const mailCount = (to: string) => sentMail.filter((mail) => mail.to === to).length;

/** The one-time token in a mail's link. */
export function tokenIn(mail: Mail): string {
  const token = new URL(mail.link).searchParams.get("token");
  if (!token) throw new Error(`no token in ${mail.link}`);
  return token;
}
