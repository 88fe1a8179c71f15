import type { AfterResponse } from '@kora/identity';
import type { Mailer } from '@kora/kernel';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Provider } from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../../config/config';
import type { IdpStore } from '../idp-store';
import { IDP_STRINGS, type IdpLanguage, type IdpStrings } from '../locales';
import type { DeviceCookies, LoginThrottle } from '../login-throttle';
import type { Pages } from '../pages';
import type { PageLimits } from '../rate-limits';

/** oidc-provider's error classes (the package is loaded at `init`, being ESM-only). */
export type OidcErrors = (typeof import('oidc-provider'))['errors'];

export type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

/** What the provider's own pages work with: one per provider, made once oidc-provider and the keys are loaded. */
export interface InteractionContext {
  readonly config: Config;
  readonly provider: Provider;
  readonly errors: OidcErrors;
  readonly users: IdpStore;
  readonly mailer: Mailer;
  readonly logger: Logger;
  readonly pages: Pages;
  readonly limits: PageLimits;
  readonly throttle: LoginThrottle;
  readonly devices: DeviceCookies;
  /** Mails and tokens whose existence depends on the address: done after the answer, so it never tells. */
  readonly afterAnswer: AfterResponse;
  /** Signs every device of the account out, once its password was reset (the provider's port does it). */
  signOutEverywhere(userId: string): Promise<void>;
}

/** The forms' bodies (urlencoded, small): the routes that take a form put it before their handler. */
export const formBody = express.urlencoded({ extended: false, limit: '16kb' });

type PageHandler = (context: InteractionContext, req: Request, res: Response) => Promise<void>;

/** A page with a form that posts back to its own address: GET shows it, POST takes the form. */
export function formRoute(
  router: Router,
  context: InteractionContext,
  path: string,
  show: PageHandler,
  submit: PageHandler,
): void {
  router.get(
    path,
    handle((req, res) => show(context, req, res)),
  );
  router.post(
    path,
    formBody,
    handle((req, res) => submit(context, req, res)),
  );
}

/**
 * What a page of a running interaction starts with: its details (oidc-provider's, from the interaction cookie) and
 * its language.
 */
export async function interactionLanguage(
  context: InteractionContext,
  req: Request,
  res: Response,
): Promise<{ details: InteractionDetails; language: IdpLanguage; t: IdpStrings }> {
  const details = await context.provider.interactionDetails(req, res);
  const language = context.pages.language(req, details.params.ui_locales);
  return { details, language, t: IDP_STRINGS[language] };
}

/** The same for a page showing the interaction's form: remembers a language chosen with `?lang=`, gives its base path. */
export async function interactionPage(
  context: InteractionContext,
  req: Request,
  res: Response,
): Promise<{ language: IdpLanguage; t: IdpStrings; base: string }> {
  const { details, language, t } = await interactionLanguage(context, req, res);
  context.pages.rememberLanguage(req, res);
  return { language, t, base: `/oidc/interaction/${details.uid}` };
}

/** An async page handler as Express middleware: its failure goes to the pages' error handler. */
export function handle(
  handler: (req: Request, res: Response) => Promise<void>,
): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    handler(req, res).catch(next);
  };
}
