/** Resolves after `ms` milliseconds (the polling loops' pause). */
export const sleep = (ms: number): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, ms));
