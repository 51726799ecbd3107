// The comparison rules of docs/conformance.md, written from that text: JSON equality, pointers,
// containment, and the comparison of an answer (status, body) with a vector's `expected`.

export const ABSENT = Symbol("absent");

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// JSON equality: the same JSON type; numbers by value; arrays item by item; objects key by key.
export function same(a, b) {
  if (a === ABSENT || b === ABSENT) return false;
  if (a === null || b === null || typeof a === "boolean" || typeof b === "boolean") return a === b;
  if (typeof a === "number" && typeof b === "number") return a === b;
  if (typeof a === "string" && typeof b === "string") return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

// The value at a JSON pointer (RFC 6901), or ABSENT.
export function resolve(doc, pointer) {
  if (pointer === "") return doc;
  if (!pointer.startsWith("/")) return ABSENT;
  let node = doc;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (isObject(node)) {
      if (!Object.hasOwn(node, token)) return ABSENT;
      node = node[token];
    } else if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= node.length) return ABSENT;
      node = node[Number(token)];
    } else {
      return ABSENT;
    }
  }
  return node;
}

// Containment: an expected object's keys (recursively); anything else JSON-equal.
export function contained(expected, actual) {
  if (isObject(expected)) {
    return isObject(actual) && Object.entries(expected).every(([k, v]) => Object.hasOwn(actual, k) && contained(v, actual[k]));
  }
  return same(expected, actual);
}

const list = (body, key) => (isObject(body) && Array.isArray(body[key]) ? body[key] : []);
const clauses = (body, key) => list(body, key).map((e) => (isObject(e) && Object.hasOwn(e, "clause") ? e.clause : null));

function at(body, expected, prefix = "") {
  const out = [];
  for (const [pointer, value] of Object.entries(expected ?? {})) {
    const got = resolve(body, prefix + pointer);
    if (!same(got, value)) out.push({ pointer: prefix + pointer, expected: value, actual: got });
  }
  return out;
}

// Every difference between the answer and the vector's expectations, in the order of the rules.
export function compare(expected, status, body) {
  const want = expected.status ?? 200;
  if (status !== want) return [{ pointer: "(status)", expected: want, actual: status }];
  const diffs = [];
  if (status >= 400) {
    if ("problem" in expected) {
      const type = isObject(body) ? body.type : undefined;
      const code = typeof type === "string" ? type.slice(type.lastIndexOf("/") + 1) : null;
      if (code !== expected.problem) diffs.push({ pointer: "/type", expected: `.../${expected.problem}`, actual: type ?? null });
    }
    const pointers = list(body, "errors").map((e) => (isObject(e) && Object.hasOwn(e, "pointer") ? e.pointer : null));
    for (const p of expected.problems ?? []) {
      if (!pointers.includes(p)) diffs.push({ pointer: "/errors", expected: `a problem at ${p}`, actual: pointers });
    }
    return diffs.concat(at(body, expected.response));
  }
  if ("legal" in expected) {
    const got = resolve(body, "/legal");
    if (!same(got, expected.legal)) diffs.push({ pointer: "/legal", expected: expected.legal, actual: got });
  }
  for (const key of ["violations", "undetermined"]) {
    if (key in expected) {
      const got = clauses(body, key);
      if (!same(got, expected[key])) diffs.push({ pointer: "/" + key, expected: expected[key], actual: got });
    }
  }
  if ("step" in expected) {
    const got = resolve(body, "/violations/0/step");
    if (!same(got, expected.step)) diffs.push({ pointer: "/violations/0/step", expected: expected.step, actual: got });
  }
  if ("ambiguous" in expected) {
    const got = resolve(body, "/violations/0/ambiguous") === true || resolve(body, "/ambiguous") === true;
    if (got !== expected.ambiguous) diffs.push({ pointer: "/violations/0/ambiguous", expected: expected.ambiguous, actual: got });
  }
  diffs.push(...at(body, expected.state, "/state"), ...at(body, expected.response));
  if ("result" in expected) {
    const got = resolve(body, "/result");
    if (!same(got, expected.result)) diffs.push({ pointer: "/result", expected: expected.result, actual: got });
  }
  if ("events" in expected) {
    const events = list(body, "events");
    let pos = 0;
    for (const want of expected.events) {
      while (pos < events.length && !contained(want, events[pos])) pos += 1;
      if (pos === events.length) {
        diffs.push({ pointer: "/events", expected: want, actual: events });
        break;
      }
      pos += 1;
    }
  }
  return diffs;
}

export function describe(diff) {
  const actual = diff.actual === ABSENT ? "(absent)" : JSON.stringify(diff.actual);
  return `at ${diff.pointer || "/"}: expected ${JSON.stringify(diff.expected)}, got ${actual}`;
}
