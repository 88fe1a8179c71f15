/**
 * The stream names of this module's aggregates, one helper per family; projections and other modules import them
 * from here. Stream names are persisted: never change a prefix.
 */
export const mixStream = (sessionId: string): string => `mix-${sessionId}`;
