import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main } from "../src/cli/main.js";

/** The `## Command line` block of README.md: the synopsis a user reads first. */
function synopsis(): string {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const section = readme.slice(readme.indexOf("## Command line"));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error("README.md has no ```sh block under ## Command line");
  return block[1] as string;
}

async function help(...argv: string[]): Promise<string> {
  let out = "";
  await main([...argv, "--help"], { stdout: (s) => void (out += s), stderr: () => {} });
  return out;
}

describe("README command synopsis", () => {
  it("names every command and every option that commander defines", async () => {
    const block = synopsis();
    const commands = [...(await help()).matchAll(/^ {2}([a-z]+)(?:\|[a-z]+)? /gm)].map((m) => m[1] as string);
    expect(commands).toContain("run");
    expect(commands).toContain("help");
    for (const command of commands) {
      expect(block, `command ${command}`).toMatch(new RegExp(`\\b${command}\\b`));
      if (command === "help") continue;
      const flags = [...(await help(command)).matchAll(/(?:^|[ ,])(--[a-z][a-z-]*)/gm)].map((m) => m[1] as string).filter((f) => f !== "--help");
      for (const flag of flags) expect(block, `${command} ${flag}`).toMatch(new RegExp(`${flag}(?![a-z-])`));
    }
  });
});
