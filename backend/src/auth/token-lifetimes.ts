/** How long the access tokens of the built-in provider's token endpoint live. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;

/**
 * The longest an access token of the built-in provider lives: the token endpoint's hour, or up to a day for the ones
 * `npm run users -- token --minutes N` prints (`signAccessToken` caps N). The revocation list forgets cutoffs older
 * than this (plus a margin): every token they could refuse has expired.
 */
export const LONGEST_ACCESS_TOKEN_SECONDS = 24 * 60 * 60;
