// `npm run report` (bundled to build/report.js): the operator's report in a terminal (app/report).
import { runReport } from "../app/report/cli.server";

process.exitCode = await runReport(process.argv.slice(2));
