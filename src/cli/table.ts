/** Renders rows as an aligned plain-text table; numbers are right-aligned. */
export function renderTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cells = [header, ...rows].map((r) => r.map((c) => String(c)));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => [...(r[i] ?? "")].length)));
  const line = (r: readonly string[], source: readonly (string | number)[]) =>
    r
      .map((c, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - [...c].length);
        return typeof source[i] === "number" ? pad + c : c + pad;
      })
      .join("  ")
      .trimEnd();
  const out = [line(cells[0] ?? [], header), widths.map((w) => "-".repeat(w)).join("  ")];
  rows.forEach((r, i) => out.push(line(cells[i + 1] ?? [], r)));
  return out.join("\n");
}
