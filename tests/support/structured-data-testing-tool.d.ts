// The parts of structured-data-testing-tool (CommonJS, no types of its own) the tests use.
declare module "structured-data-testing-tool" {
  export type TestResult = { test: string; group?: string; description?: string; error?: { message?: string } };
  export type Outcome = { passed: TestResult[]; failed: TestResult[]; warnings: TestResult[]; schemas: string[] };
  export type Preset = { name: string };
  /** Resolves with the outcome when every test passes, rejects with `{ res: Outcome }` otherwise. */
  export function structuredDataTest(html: string, options: { presets: Preset[] }): Promise<Outcome>;
}

declare module "structured-data-testing-tool/presets" {
  import type { Preset } from "structured-data-testing-tool";
  export const Google: Preset;
  export const Twitter: Preset;
  export const Facebook: Preset;
}
