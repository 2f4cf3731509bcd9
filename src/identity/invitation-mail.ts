import type { Mail } from "../mail/mail";

/** The invitation mail: the only place its token ever goes. Its wording depends on whether the email has an account. */
export function invitationMail(input: {
  to: string;
  tenantName: string;
  role: string;
  link: string;
  expiresAt: string;
  accountExists: boolean;
}): Mail {
  const how = input.accountExists
    ? `Sign in as ${input.to}, then open this link to accept:`
    : "Open this link to choose your password and join:";
  return {
    to: input.to,
    subject: `You are invited to ${input.tenantName}`,
    link: input.link,
    text: [
      `You have been invited to join ${input.tenantName} as ${input.role}.`,
      "",
      how,
      input.link,
      "",
      `The link works once and expires at ${input.expiresAt}. If you did not expect this, ignore this mail.`,
    ].join("\n"),
  };
}
