import { formatDay } from './format';
import type { MailMessage } from './mail';

/** A text in both languages. */
export interface LocalisedText {
  readonly en: string;
  readonly fr: string;
}

const escape = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface ReadyMailInput {
  readonly to: string;
  readonly language: 'en' | 'fr';
  /** The account's first name, or empty (purged or never given). */
  readonly firstName: string;
  /** The result's name as shown: HTML tags stripped. */
  readonly filename: string;
  /** What was done, `{name}` standing for the name: "The mastering of “{name}” is done." */
  readonly done: LocalisedText;
  /** What an unlock applies to: "the track", "the mix". */
  readonly unlockWhat: LocalisedText;
  /** Unlocked: the links are the full-quality downloads; locked: the free previews, and how to unlock. */
  readonly unlocked: boolean;
  readonly links: ReadonlyArray<{ label: LocalisedText; url: string }>;
  /** The labels of the downloads the unlock gives (a locked result names them without linking them). */
  readonly lockedDownloads: readonly LocalisedText[];
  /** The result in the app. */
  readonly trackUrl: string;
  /** Where the e-mail notifications are turned off. */
  readonly settingsUrl: string;
  readonly expires: Date;
  /** The outbox's name for the mail. */
  readonly template: string;
}

/**
 * "Your result is ready", in the account's language: what is done, the signed links (downloads once unlocked, the
 * free previews before), what to do next, the link to the result and where to turn these e-mails off. The audio
 * module's tracks and the mixing module's mixes send it.
 */
export function readyMail(input: ReadyMailInput): MailMessage {
  const fr = input.language === 'fr';
  const pick = (text: LocalisedText): string => (fr ? text.fr : text.en);
  const name = input.filename;
  const date = formatDay(input.expires, input.language);
  const subject = input.unlocked
    ? fr
      ? `Vos fichiers sont prêts : ${name}`
      : `Your files are ready: ${name}`
    : fr
      ? `Votre aperçu est prêt : ${name}`
      : `Your preview is ready: ${name}`;
  const greeting = fr
    ? input.firstName
      ? `Bonjour ${input.firstName},`
      : 'Bonjour,'
    : input.firstName
      ? `Hello ${input.firstName},`
      : 'Hello,';
  const done = pick(input.done).replace('{name}', name);
  const lead = input.unlocked
    ? fr
      ? 'Vos fichiers en pleine qualité sont prêts à télécharger :'
      : 'Your full-quality files are ready to download:'
    : fr
      ? 'Écoutez l’aperçu gratuit :'
      : 'Listen to the free preview:';
  const downloads = input.lockedDownloads.map(pick).join(', ');
  const next = input.unlocked
    ? fr
      ? 'Vous retrouvez aussi le résultat dans Kora :'
      : 'The result is also waiting for you in Kora:'
    : fr
      ? `Pour télécharger le résultat en pleine qualité (${downloads}), débloquez ${input.unlockWhat.fr} dans Kora, par un paiement unique ou avec un crédit de votre formule :`
      : `To download the full-quality result (${downloads}), unlock ${input.unlockWhat.en} in Kora, with a single payment or a credit from your plan:`;
  const open = fr ? `Ouvrir « ${name} » dans Kora` : `Open “${name}” in Kora`;
  const validity = fr ? `Les liens fonctionnent jusqu’au ${date}.` : `The links work until ${date}.`;
  const why = fr
    ? 'Vous recevez cet e-mail car les notifications par e-mail sont activées dans les paramètres de votre compte. Pour ne plus les recevoir :'
    : 'You receive this e-mail because e-mail notifications are on in your account settings. To stop them:';
  const sign = fr ? 'L’équipe Kora' : 'The Kora team';
  const text = [
    greeting,
    '',
    done,
    lead,
    '',
    ...input.links.map((link) => `${pick(link.label)}: ${link.url}`),
    '',
    validity,
    '',
    next,
    input.trackUrl,
    '',
    why,
    input.settingsUrl,
    '',
    sign,
  ].join('\n');
  const html = `<!doctype html><html lang="${input.language}"><body style="font-family:Arial,Helvetica,sans-serif;color:#16181d">
<p>${escape(greeting)}</p><p>${escape(done)} ${escape(lead)}</p>
<ul>${input.links.map((link) => `<li><a href="${escape(link.url)}">${escape(pick(link.label))}</a></li>`).join('')}</ul>
<p>${escape(validity)}</p>
<p>${escape(next)}<br><a href="${escape(input.trackUrl)}">${escape(open)}</a></p>
<p style="font-size:12px;color:#5b606b">${escape(why)} <a href="${escape(input.settingsUrl)}">${escape(input.settingsUrl)}</a></p>
<p>${escape(sign)}</p></body></html>`;
  return { to: input.to, subject, text, html, language: input.language, template: input.template };
}
