/** The seeded generator every benchmark corpus is drawn from, so that each run measures the same input. */
export { seededRandom } from "../src/stats/prng.js";
