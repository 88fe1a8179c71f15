/** Every string of the built-in provider's pages and e-mails, in English and French. */
export const IDP_STRINGS = {
  en: {
    brand: 'Kora',
    tagline: 'Studio-quality audio for African creators',
    switchLanguage: 'Français',
    email: 'E-mail address',
    password: 'Password',
    newPassword: 'New password',
    confirmPassword: 'Confirm the new password',
    firstName: 'First name',
    lastName: 'Last name',
    passwordHint: 'At least 8 characters.',
    signIn: {
      title: 'Sign in to Kora',
      submit: 'Sign in',
      forgot: 'Forgot your password?',
      noAccount: 'New to Kora?',
      create: 'Create an account',
      invalid: 'Wrong e-mail or password.',
      trustOffer:
        'Is this your account? Failed attempts from elsewhere are slowing it down. We can e-mail you a link that lets this browser sign in right away.',
      trustSubmit: 'E-mail me a link for this browser',
    },
    trust: {
      sent: 'If an account exists for {{email}}, a link is on its way. Open it in this browser, then sign in.',
      title: 'This browser is recognised',
      done: 'Failed attempts from elsewhere no longer slow this browser down. You can sign in now.',
      expired: 'This link has expired or was already used. Ask for a new one from the sign-in page.',
      signIn: 'Sign in',
    },
    signUp: {
      title: 'Create your Kora account',
      submit: 'Create my account',
      haveAccount: 'Already have an account?',
      signIn: 'Sign in',
      checkTitle: 'Check your e-mail',
      sent: 'We have sent a message to {{email}}. Follow its link to finish creating your account; it works for 24 hours.',
    },
    forgot: {
      title: 'Reset your password',
      intro: 'Enter the e-mail address of your account and we will send you a link to choose a new password.',
      submit: 'Send the link',
      sent: 'If an account exists for {{email}}, a link to reset its password is on its way. It works for one hour.',
      back: 'Back to sign in',
    },
    reset: {
      title: 'Choose a new password',
      submit: 'Save the new password',
      done: 'Your password is changed. You can now sign in with it.',
      expired: 'This link has expired or was already used. Ask for a new one.',
      mismatch: 'The two passwords do not match.',
      toApp: 'Go to Kora',
    },
    verify: {
      done: 'Thank you: your e-mail address is confirmed.',
      expired: 'This confirmation link has expired or was already used.',
      created: 'Your account is ready: sign in with your e-mail address and password.',
      taken: 'This address already has a Kora account: sign in with it, or reset its password.',
      signIn: 'Sign in',
    },
    logout: {
      title: 'Signing out…',
      continue: 'Continue',
      done: 'You are signed out of Kora.',
      again: 'Sign in again',
    },
    errors: {
      required: 'This field is required.',
      email: 'Enter a valid e-mail address.',
      passwordLength: 'The password needs 8 to 128 characters.',
      tooMany: 'Too many attempts. Try again in {{wait}}.',
      session: 'This sign-in page has expired. Start again from the Kora app.',
      generic: 'Something went wrong. Please try again.',
    },
    mail: {
      resetSubject: 'Reset your Kora password',
      resetText:
        'Hello {{name}},\n\nSomeone (hopefully you) asked to reset the password of your Kora account. Choose a new one here:\n\n{{link}}\n\nThe link works for one hour and only once. If you did not ask for it, ignore this e-mail: your password stays the same.\n\nThe Kora team',
      resetButton: 'Choose a new password',
      verifySubject: 'Confirm your e-mail address for Kora',
      verifyText:
        'Hello {{name}},\n\nWelcome to Kora! Open this link to confirm your e-mail address and finish creating your account:\n\n{{link}}\n\nThe link works for 24 hours.\n\nThe Kora team',
      verifyButton: 'Confirm my address',
      signUpAttemptSubject: 'Someone tried to create a Kora account with your address',
      signUpAttemptText:
        'Hello {{name}},\n\nSomeone (perhaps you) just tried to create a new Kora account with this e-mail address. You already have an account: sign in with your password as usual.\n\nIf you have forgotten it, choose a new one with this link:\n\n{{link}}\n\nThe link works for one hour and only once. If you did not try to create an account, ignore this e-mail: nothing has changed on your account.\n\nThe Kora team',
      signUpAttemptButton: 'Choose a new password',
      trustSubject: 'Sign in to Kora from this browser',
      trustText:
        'Hello {{name}},\n\nSomeone (hopefully you) asked to sign in to your Kora account while failed attempts from elsewhere are slowing it down. Open this link in the browser you sign in with: it will be recognised, and only your password will be asked for.\n\n{{link}}\n\nThe link works for 15 minutes and only once. If you did not ask for it, ignore this e-mail: someone may be trying to guess your password, and a strong password keeps them out.\n\nThe Kora team',
      trustButton: 'Recognise this browser',
      footer: 'You receive this e-mail because of your Kora account.',
    },
  },
  fr: {
    brand: 'Kora',
    tagline: 'Un son de studio pour les créateurs africains',
    switchLanguage: 'English',
    email: 'Adresse e-mail',
    password: 'Mot de passe',
    newPassword: 'Nouveau mot de passe',
    confirmPassword: 'Confirmez le nouveau mot de passe',
    firstName: 'Prénom',
    lastName: 'Nom',
    passwordHint: '8 caractères minimum.',
    signIn: {
      title: 'Connexion à Kora',
      submit: 'Se connecter',
      forgot: 'Mot de passe oublié ?',
      noAccount: 'Pas encore de compte ?',
      create: 'Créer un compte',
      invalid: 'E-mail ou mot de passe incorrect.',
      trustOffer:
        'C’est votre compte ? Des tentatives échouées venues d’ailleurs le ralentissent. Nous pouvons vous envoyer par e-mail un lien qui permet à ce navigateur de se connecter tout de suite.',
      trustSubmit: 'M’envoyer un lien pour ce navigateur',
    },
    trust: {
      sent: 'Si un compte existe pour {{email}}, un lien vient de lui être envoyé. Ouvrez-le dans ce navigateur, puis connectez-vous.',
      title: 'Ce navigateur est reconnu',
      done: 'Les tentatives échouées venues d’ailleurs ne ralentissent plus ce navigateur. Vous pouvez vous connecter.',
      expired: 'Ce lien a expiré ou a déjà servi. Demandez-en un nouveau depuis la page de connexion.',
      signIn: 'Se connecter',
    },
    signUp: {
      title: 'Créez votre compte Kora',
      submit: 'Créer mon compte',
      haveAccount: 'Vous avez déjà un compte ?',
      signIn: 'Se connecter',
      checkTitle: 'Vérifiez vos e-mails',
      sent: 'Nous avons envoyé un message à {{email}}. Suivez le lien qu’il contient pour terminer la création de votre compte ; il reste valable 24 heures.',
    },
    forgot: {
      title: 'Réinitialiser le mot de passe',
      intro:
        'Saisissez l’adresse e-mail de votre compte : nous vous enverrons un lien pour choisir un nouveau mot de passe.',
      submit: 'Envoyer le lien',
      sent: 'Si un compte existe pour {{email}}, un lien de réinitialisation vient de lui être envoyé. Il reste valable une heure.',
      back: 'Retour à la connexion',
    },
    reset: {
      title: 'Choisissez un nouveau mot de passe',
      submit: 'Enregistrer le mot de passe',
      done: 'Votre mot de passe a bien été changé. Vous pouvez maintenant vous connecter avec.',
      expired: 'Ce lien a expiré ou a déjà servi. Demandez-en un nouveau.',
      mismatch: 'Les deux mots de passe ne sont pas identiques.',
      toApp: 'Aller sur Kora',
    },
    verify: {
      done: 'Merci : votre adresse e-mail est confirmée.',
      expired: 'Ce lien de confirmation a expiré ou a déjà servi.',
      created: 'Votre compte est prêt : connectez-vous avec votre adresse e-mail et votre mot de passe.',
      taken: 'Cette adresse a déjà un compte Kora : connectez-vous, ou réinitialisez son mot de passe.',
      signIn: 'Se connecter',
    },
    logout: {
      title: 'Déconnexion…',
      continue: 'Continuer',
      done: 'Vous êtes déconnecté de Kora.',
      again: 'Se reconnecter',
    },
    errors: {
      required: 'Ce champ est obligatoire.',
      email: 'Saisissez une adresse e-mail valide.',
      passwordLength: 'Le mot de passe doit faire entre 8 et 128 caractères.',
      tooMany: 'Trop de tentatives. Réessayez dans {{wait}}.',
      session: 'Cette page de connexion a expiré. Recommencez depuis l’application Kora.',
      generic: 'Un problème est survenu. Merci de réessayer.',
    },
    mail: {
      resetSubject: 'Réinitialisez votre mot de passe Kora',
      resetText:
        'Bonjour {{name}},\n\nUne demande de réinitialisation du mot de passe de votre compte Kora a été faite (par vous, nous l’espérons). Choisissez-en un nouveau ici :\n\n{{link}}\n\nLe lien reste valable une heure et ne sert qu’une fois. Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail : votre mot de passe ne change pas.\n\nL’équipe Kora',
      resetButton: 'Choisir un nouveau mot de passe',
      verifySubject: 'Confirmez votre adresse e-mail pour Kora',
      verifyText:
        'Bonjour {{name}},\n\nBienvenue sur Kora ! Ouvrez ce lien pour confirmer votre adresse e-mail et terminer la création de votre compte :\n\n{{link}}\n\nLe lien reste valable 24 heures.\n\nL’équipe Kora',
      verifyButton: 'Confirmer mon adresse',
      signUpAttemptSubject: 'Quelqu’un a essayé de créer un compte Kora avec votre adresse',
      signUpAttemptText:
        'Bonjour {{name}},\n\nQuelqu’un (peut-être vous) vient d’essayer de créer un nouveau compte Kora avec cette adresse e-mail. Vous avez déjà un compte : connectez-vous avec votre mot de passe habituel.\n\nSi vous l’avez oublié, choisissez-en un nouveau grâce à ce lien :\n\n{{link}}\n\nLe lien reste valable une heure et ne sert qu’une fois. Si vous n’avez pas essayé de créer de compte, ignorez cet e-mail : rien n’a changé sur votre compte.\n\nL’équipe Kora',
      signUpAttemptButton: 'Choisir un nouveau mot de passe',
      trustSubject: 'Connexion à Kora depuis ce navigateur',
      trustText:
        'Bonjour {{name}},\n\nQuelqu’un (vous, nous l’espérons) a demandé à se connecter à votre compte Kora pendant que des tentatives échouées venues d’ailleurs le ralentissent. Ouvrez ce lien dans le navigateur avec lequel vous vous connectez : il sera reconnu, et seul votre mot de passe vous sera demandé.\n\n{{link}}\n\nLe lien fonctionne 15 minutes, une seule fois. Si vous n’avez rien demandé, ignorez cet e-mail : quelqu’un essaie peut-être de deviner votre mot de passe, et un mot de passe solide le tient à l’écart.\n\nL’équipe Kora',
      trustButton: 'Reconnaître ce navigateur',
      footer: 'Vous recevez cet e-mail parce que vous avez un compte Kora.',
    },
  },
} as const;

export type IdpLanguage = keyof typeof IDP_STRINGS;
export type IdpStrings = (typeof IDP_STRINGS)[IdpLanguage];

/** Replaces `{{name}}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));
}

/** `ui_locales` first, then the language cookie, then Accept-Language, then French. */
export function pickLanguage(...candidates: Array<string | undefined | null>): IdpLanguage {
  for (const candidate of candidates) {
    if (!candidate) continue;
    for (const part of candidate.split(/[\s,]+/)) {
      const base = part.split(';')[0]!.trim().toLowerCase().split('-')[0];
      if (base === 'en' || base === 'fr') return base;
    }
  }
  return 'fr';
}
