import { formatDay, type MailMessage } from '@kora/kernel';

const escape = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The e-mail carrying a result's download links, in English or French. */
export function resultMail(
  to: string,
  language: 'en' | 'fr',
  filename: string,
  unlocked: boolean,
  links: Array<{ label: string; url: string }>,
  expires: Date,
): MailMessage {
  const date = formatDay(expires, language);
  const fr = language === 'fr';
  // No file name in the subject: it is the user's text, and the address may be anyone's.
  const subject = fr
    ? unlocked
      ? 'Vos fichiers Kora en pleine qualité'
      : 'Votre aperçu Kora'
    : unlocked
      ? 'Your full-quality Kora files'
      : 'Your Kora preview';
  const intro = fr
    ? unlocked
      ? `Voici le résultat de « ${filename} », en pleine qualité.`
      : `Voici l’aperçu de « ${filename} ».`
    : unlocked
      ? `Here is the full-quality result of “${filename}”.`
      : `Here is the preview of “${filename}”.`;
  const validity = fr ? `Les liens fonctionnent jusqu’au ${date}.` : `The links work until ${date}.`;
  const sign = fr ? 'L’équipe Kora' : 'The Kora team';
  const text = [intro, '', ...links.map((link) => `${link.label}: ${link.url}`), '', validity, '', sign].join('\n');
  const html = `<!doctype html><html lang="${language}"><body style="font-family:Arial,Helvetica,sans-serif;color:#16181d">
<p>${escape(intro)}</p><ul>${links.map((link) => `<li><a href="${escape(link.url)}">${escape(link.label)}</a></li>`).join('')}</ul>
<p>${escape(validity)}</p><p>${escape(sign)}</p></body></html>`;
  return { to, subject, text, html, language, template: 'track-result' };
}
