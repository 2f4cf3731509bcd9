import type { MailSender } from "./mail";

/** Production through Cloudflare Email Service: the `send_email` binding named MAILER (wrangler.toml). */
export function cloudflareSender(binding: SendEmail, from: string): MailSender {
  return {
    async send(mail) {
      await binding.send({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
