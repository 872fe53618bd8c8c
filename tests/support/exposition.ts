// The tests read an exposition as the operator's report does (app/metrics/exposition.ts).
export { samples, type Sample } from "~/metrics/exposition";
