// The server's JSON API: plain requests, and the streamed ones (analysis, review) whose
// answer is JSON lines: progress lines, then a result or an error.

// How long a streamed request waits for one of the server's search slots, and how often
// it asks.
export const SLOT_WAIT_MS = 60000, SLOT_RETRY_MS = 500;

export async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const value = await response.json();
  if (!response.ok) throw new Error(value.error || response.statusText);
  return value;
}

// Reads the whole lines of JSON at the start of `buffer`: the values and what is left
// (a line still coming).
export function takeLines(buffer) {
  const values = [];
  let newline;
  while ((newline = buffer.indexOf("\n")) >= 0) {
    values.push(JSON.parse(buffer.slice(0, newline)));
    buffer = buffer.slice(newline + 1);
  }
  return { values, rest: buffer };
}

// Sorts a streamed line: progress goes to `progress`, an error is thrown, and anything
// else is the result, returned.
export function handleLine(line, progress) {
  if (line.type === "progress") { progress(line); return undefined; }
  if (line.type === "error") throw new Error(line.error);
  return line;
}

// Streams JSON lines from `path`; calls `progress` with each progress line and `waiting`
// while the server's searches are all taken (503); returns the result.
export async function streamed(path, body, progress, waiting = () => {}) {
  let response;
  for (const asked = Date.now(); ; ) {
    response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    if (response.status !== 503 || Date.now() - asked > SLOT_WAIT_MS) break;
    waiting();
    await new Promise((resolve) => setTimeout(resolve, SLOT_RETRY_MS));
  }
  if (!response.ok) throw new Error((await response.json()).error);
  const reader = response.body.getReader(), decoder = new TextDecoder();
  let buffer = "", result = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const taken = takeLines(buffer + decoder.decode(value, { stream: true }));
    buffer = taken.rest;
    for (const line of taken.values) result = handleLine(line, progress) ?? result;
  }
  return result;
}
