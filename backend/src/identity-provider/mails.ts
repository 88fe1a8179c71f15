import type { MailMessage } from '@kora/kernel';
import { escapeHtml } from './pages';
import { fill, IDP_STRINGS, type IdpLanguage } from './locales';

function html(language: IdpLanguage, paragraphs: string[], button: { href: string; text: string }): string {
  const t = IDP_STRINGS[language];
  return `<!doctype html><html lang="${language}"><body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#16181d">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="520" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px;padding:28px">
<tr><td style="font-size:22px;font-weight:bold;color:#0f1115;padding-bottom:16px">Kora</td></tr>
${paragraphs.map((p) => `<tr><td style="font-size:15px;line-height:1.55;padding-bottom:12px">${escapeHtml(p)}</td></tr>`).join('')}
<tr><td style="padding:12px 0 20px"><a href="${escapeHtml(button.href)}" style="display:inline-block;background:#f5a524;color:#111;text-decoration:none;font-weight:bold;padding:12px 22px;border-radius:999px">${escapeHtml(button.text)}</a></td></tr>
<tr><td style="font-size:12px;color:#6b7280">${escapeHtml(t.mail.footer)}</td></tr>
</table></td></tr></table></body></html>`;
}

/** Builds a message from a template whose text has a `{{link}}` line: the HTML part turns that line into a button. */
function message(
  template: 'password-reset' | 'email-verification' | 'sign-up-attempt' | 'trust-device',
  to: string,
  language: IdpLanguage,
  subject: string,
  text: string,
  link: string,
  button: string,
  name: string,
): MailMessage {
  const body = fill(text, { name, link });
  const paragraphs = fill(text, { name, link: '\u0000' })
    .split('\n\n')
    .filter((p) => !p.includes('\u0000'));
  return {
    to,
    subject,
    text: body,
    html: html(language, paragraphs, { href: link, text: button }),
    language,
    template,
  };
}

export function passwordResetMail(to: string, language: IdpLanguage, name: string, link: string): MailMessage {
  const t = IDP_STRINGS[language].mail;
  return message('password-reset', to, language, t.resetSubject, t.resetText, link, t.resetButton, name);
}

export function emailVerificationMail(to: string, language: IdpLanguage, name: string, link: string): MailMessage {
  const t = IDP_STRINGS[language].mail;
  return message('email-verification', to, language, t.verifySubject, t.verifyText, link, t.verifyButton, name);
}

/** To the owner of an address someone tried to sign up with: you have an account; here is a reset link. */
export function signUpAttemptMail(to: string, language: IdpLanguage, name: string, link: string): MailMessage {
  const t = IDP_STRINGS[language].mail;
  return message(
    'sign-up-attempt',
    to,
    language,
    t.signUpAttemptSubject,
    t.signUpAttemptText,
    link,
    t.signUpAttemptButton,
    name,
  );
}

/** To the owner of an account under a guessing attack: a link that makes the browser opening it a recognised one. */
export function trustDeviceMail(to: string, language: IdpLanguage, name: string, link: string): MailMessage {
  const t = IDP_STRINGS[language].mail;
  return message('trust-device', to, language, t.trustSubject, t.trustText, link, t.trustButton, name);
}
