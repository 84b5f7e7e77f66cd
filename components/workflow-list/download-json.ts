/**
 * Saves `value` as a JSON file through the browser's download, without a
 * round trip: the text is exactly `JSON.stringify(value, null, 2)`.
 */
export function downloadJson(value: unknown, fileName: string): void {
  const blob = new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the download has started; revoking at once cancels it in some browsers.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
