/** Reports: pure functions from run data to one file's text (HTML or JUnit XML). No I/O. */
export { renderRunReport } from "./run-report.js";
export { renderComparisonReport, textsUnavailableNote } from "./comparison-report.js";
export { renderTrendReport } from "./trend-report.js";
export { renderJUnit } from "./junit.js";
export { highlightFor } from "./choose.js";
export type { ComparisonReportInput, JUnitInput, RunReportInput, TrendReportInput } from "./types.js";
