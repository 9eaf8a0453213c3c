/**
 * JSON answers carry bank text as the bank sent it. JSON.stringify (and SQLite's JSON
 * functions) escape the C0 controls but leave DEL and the C1 controls raw, and a terminal
 * that shows an answer obeys some of them (U+009B opens an escape sequence). Outside
 * strings JSON is ASCII, so each can only be inside a string, where `\u009b` reads back
 * as the same character: the answer means the same and shows safely.
 */
const RAW_CONTROL = /[\u007f-\u009f]/;
const RAW_CONTROLS = /[\u007f-\u009f]/g;

export function escapeRawControls(json: string): string {
  if (!RAW_CONTROL.test(json)) return json;
  return json.replace(RAW_CONTROLS, (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
