/** An e-mail as the product writes it: always a plain-text part, usually an HTML part too. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html?: string;
  /** `en` or `fr`: the language the message is written in (Content-Language). */
  readonly language: string;
  /** A short machine name for the kind of message (`password-reset`), for the outbox index and logs. */
  readonly template: string;
}

export interface SentMail {
  readonly id: string;
  readonly acceptedAt: string;
}

/**
 * The mail port. Adapters: the outbox directory (default: one .eml per message plus a JSON index, listed at
 * /dev/outbox) and SMTP (`SMTP_URL`). Sending never blocks a business decision: callers record their event first.
 */
export abstract class Mailer {
  abstract send(message: MailMessage): Promise<SentMail>;
  abstract readonly kind: string;
}
