import { isLocalDevelopment } from "../config/production-guard";
import type { AppContext } from "../env";
import { AppError } from "../http/errors";
import { log } from "../observability/log";
import { cloudflareSender } from "./cloudflare";
import { developmentSender } from "./development";
import { httpProviderSender } from "./http-provider";
import { headerSafe, type Mail, type MailSender } from "./mail";

/**
 * The sender for this request: the development sender under `wrangler dev` and in tests (local
 * development reached on localhost), else Cloudflare's `send_email` binding, else an HTTP provider.
 * A deployed Worker with neither configured refuses the request (503) rather than pretend it mailed.
 */
export function mailSender(c: AppContext): MailSender {
  const { env } = c;
  if (isLocalDevelopment(env, c.req.url)) return developmentSender;
  if (env.MAIL_FROM && env.MAILER) return cloudflareSender(env.MAILER, env.MAIL_FROM);
  if (env.MAIL_FROM && env.MAIL_API_URL && env.MAIL_API_KEY) {
    return httpProviderSender({ url: env.MAIL_API_URL, apiKey: env.MAIL_API_KEY, from: env.MAIL_FROM });
  }
  log("error", "mail is not configured", { requestId: c.var.requestId });
  throw new AppError("SERVICE_UNAVAILABLE", "Mail is not configured", {
    errors: ["Service is not configured: no mail sender"],
  });
}

/**
 * Sends after the response (the request waits for no mail provider, and its timing does not depend on
 * whether a mail went out). `mail` may be work that decides what to send, run after the response too
 * (nothing when it answers undefined). A failure is logged with the request id, never the link: the
 * person asks again (a new invitation, a new reset).
 */
export function sendAfterResponse(
  c: AppContext,
  sender: MailSender,
  mail: Mail | (() => Promise<Mail | undefined>),
): void {
  const send = async () => {
    const message = typeof mail === "function" ? await mail() : mail;
    if (message) await sender.send({ ...message, subject: headerSafe(message.subject) });
  };
  c.executionCtx.waitUntil(
    send().catch((error: unknown) => {
      log("error", "mail not sent", {
        requestId: c.var.requestId,
        error: error instanceof Error ? error.message : String(error),
      });
    }),
  );
}
