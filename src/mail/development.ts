import type { Mail, MailSender } from "./mail";

/** Every mail the development sender was given, oldest first: tests read links from here. */
export const sentMail: Mail[] = [];

/**
 * Local development and tests: nothing leaves the machine. Each mail is recorded and written as one line
 * on stdout, `[dev-mail] to=<email> subject=<subject> link=<url>`, which browser and client tests read
 * from `wrangler dev`'s output.
 */
export const developmentSender: MailSender = {
  async send(mail) {
    sentMail.push(mail);
    console.log(`[dev-mail] to=${mail.to} subject=${mail.subject} link=${mail.link}`);
  },
};
