/** One message to one person: plain text, with the one link it exists for. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The action link inside `text` (accept an invitation, reset a password). */
  link: string;
}

/** Delivers mail; each implementation is one way out (Cloudflare Email Service, an HTTP provider, the dev log). */
export interface MailSender {
  send(mail: Mail): Promise<void>;
}

/** Subjects carry tenant names: no line breaks or other control characters reach a mail header or log line. */
export function headerSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
}
