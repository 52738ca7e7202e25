/**
 * `text` whole when it is at most `max` UTF-16 code units long, else its first `max` (one fewer where the
 * last would be the first half of a surrogate pair, so that no lone half is shown) followed by "…": how a
 * message or an output shows a value that may be megabytes long.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return `${text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max)}…`;
}
