/** A compact, aligned table on stdout: figures to the right, text to the left. */
export function printTable(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): void {
  const cells = [headers, ...rows].map((row) => row.map(String));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  const numeric = headers.map((_, column) => rows.length > 0 && rows.every((row) => /^[-+]?\d[\d.]*$/.test(String(row[column]))));
  for (const row of cells) {
    const line = row.map((cell, column) => (numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)));
    console.log(line.join('  ').trimEnd());
  }
}

export const MIB = 1024 * 1024;

/** A figure with a fixed number of decimals, so a column lines up on its point. */
export const fixed = (value: number, digits = 1): string => value.toFixed(digits);

export const mib = (bytes: number, digits = 1): string => fixed(bytes / MIB, digits);
