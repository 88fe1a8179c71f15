import type { Request, Response } from 'express';
import type { InteractionContext, InteractionDetails } from './context';

/**
 * Consent without a screen: the web client is first-party, so what it asks for is granted at once (the configuration's
 * `loadExistingGrant` usually grants it before this prompt is even reached). Any other client is refused.
 */
export async function grantConsent(
  context: InteractionContext,
  req: Request,
  res: Response,
  details: InteractionDetails,
): Promise<void> {
  const { provider } = context;
  const { params, session, prompt } = details;
  if (params.client_id !== context.config.oidc.clientId || !session?.accountId) throw new context.errors.AccessDenied();
  const grant = details.grantId
    ? ((await provider.Grant.find(details.grantId)) ??
      new provider.Grant({ accountId: session.accountId, clientId: params.client_id as string }))
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id as string });
  const missing = prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}
