/** How often an article is read to the end, 0 to 1 (reading.server.ts); the same for all without counts. */
export type ReadRate = (slug: string) => number;
export const noRate: ReadRate = () => 0;
