/**
 * The stream names of this module's aggregates, one helper per family; projections and other modules import them
 * from here. Stream names are persisted: never change a prefix.
 */
export const creditsStream = (userId: string): string => `credits-${userId}`;
export const paymentStream = (paymentId: string): string => `payment-${paymentId}`;
