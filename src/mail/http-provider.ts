import type { MailSender } from "./mail";

/**
 * Production through an HTTP mail provider that takes `POST {from, to: [..], subject, text}` with a bearer
 * key (Resend's API, and the many providers compatible with it): MAIL_API_URL and the MAIL_API_KEY secret.
 */
export function httpProviderSender(config: { url: string; apiKey: string; from: string }): MailSender {
  return {
    async send(mail) {
      const response = await fetch(config.url, {
        method: "POST",
        headers: { authorization: `Bearer ${config.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ from: config.from, to: [mail.to], subject: mail.subject, text: mail.text }),
      });
      if (!response.ok) {
        throw new Error(
          `mail provider answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
        );
      }
    },
  };
}
