export const timeoutMs = 30_000;
