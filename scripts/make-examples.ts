/**
 * Generates the bundled example: a support-bot dataset of a few hundred questions with reference
 * answers, answered by two prompt variants (A and B). Deterministic (seeded); the output files are
 * committed, this script documents how they were made: `npx tsx scripts/make-examples.ts`.
 */
import { writeFileSync } from "node:fs";
import { seededRandom } from "../bench/rng.js";

const rand = seededRandom(2026);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;

const facts: [string, string, string][] = [
  ["refund", "How long does a refund take?", "Refunds are processed within 5 business days."],
  ["refund", "Can I get a refund after 30 days?", "Refunds are only possible within 30 days of delivery."],
  ["shipping", "How much is shipping?", "Standard shipping is free for orders over $50."],
  ["shipping", "Do you ship to Canada?", "Yes, we ship to Canada in 7 to 10 business days."],
  ["account", "How do I reset my password?", "Go to Settings, then Security, and click Reset password."],
  ["account", "How do I delete my account?", "Open Settings, choose Privacy, and click Delete account."],
  ["billing", "Which cards do you accept?", "We accept Visa, Mastercard and American Express."],
  ["billing", "When am I charged?", "Your card is charged when the order ships."],
  ["orders", "Can I change my order?", "Orders can be changed within one hour of purchase."],
  ["orders", "Where is my order?", "Use the tracking link in your confirmation email."],
  ["support", "What are your support hours?", "Support is open Monday to Friday, 9am to 6pm."],
  ["support", "How do I contact support?", "Email help@example.com or use the chat in the app."],
];

const fillers = ["Sure! ", "Thanks for asking. ", "Great question. ", "Hi there! ", ""];
const closers = ["", " Let me know if you need anything else.", " Hope this helps!", " Anything else?"];
const synonyms: [RegExp, string][] = [
  [/processed/, "handled"],
  [/business days/, "working days"],
  [/click/, "select"],
  [/Open/, "Go to"],
  [/free/, "at no cost"],
  [/charged/, "billed"],
  [/changed/, "modified"],
];

function paraphrase(text: string, strength: number): string {
  let out = text;
  for (const [pattern, replacement] of synonyms) if (rand() < strength) out = out.replace(pattern, replacement);
  return out;
}

function typo(text: string): string {
  const i = Math.floor(rand() * text.length);
  return text.slice(0, i) + text.slice(i + 1);
}

const rowsA: object[] = [];
const rowsB: object[] = [];
for (let i = 1; i <= 300; i++) {
  const [category, question, answer] = pick(facts);
  const id = `q${String(i).padStart(3, "0")}`;
  // Variant A: chatty and loose. Variant B: terse and closer to the reference.
  const roll = rand();
  const a = roll < 0.15 ? answer : roll < 0.25 ? pick(facts)[2] : pick(fillers) + paraphrase(answer, 0.6) + pick(closers);
  const rollB = rand();
  const b = rollB < 0.45 ? answer : rollB < 0.55 ? answer.toLowerCase() : rollB < 0.75 ? typo(answer) : rollB < 0.8 ? pick(facts)[2] : paraphrase(answer, 0.3);
  // A few rows have no reference yet: they are skipped, not counted as failures.
  const expected = i % 50 === 0 ? undefined : answer;
  const base = { id, input: question, ...(expected === undefined ? {} : { expected }), metadata: { category } };
  rowsA.push({ ...base, output: a });
  rowsB.push({ ...base, output: b });
}
const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";
writeFileSync(new URL("../examples/support-prompt-a.jsonl", import.meta.url), jsonl(rowsA));
writeFileSync(new URL("../examples/support-prompt-b.jsonl", import.meta.url), jsonl(rowsB));
console.log(`wrote ${rowsA.length} rows per variant`);
