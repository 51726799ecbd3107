#!/usr/bin/env node
// A second conformance runner, in JavaScript with no dependencies (Node 18 or later: fetch, node:test),
// written from docs/conformance.md: it runs an export of the vectors (kalooki-conformance export DIR)
// against a served implementation and reports as the Python runner does.  It exits 0 when every vector
// run passes, 1 when one fails or errors, and 2 on a usage error (an unknown option: one line), a
// target it cannot reach, or a selection that takes no vector.
//
//   node runner.mjs --base-url http://127.0.0.1:8000 --vectors DIR [--jsonl report.jsonl] [-v]
//        [--id GLOB] [--topic T] [--clause GLOB] [--endpoint E] [--decision D] [--variant V]
//        [--skip-decision D]                     (every option but the first two is repeatable)
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { compare, describe } from "./compare.mjs";

// A shell-style pattern (as Python's fnmatchcase): * any run, ? one character, [seq], [!seq].
export function globToRegExp(pattern) {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const end = pattern.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        let body = pattern.slice(i + 1, end).replaceAll("\\", "\\\\");
        if (body.startsWith("!")) body = "^" + body.slice(1);
        else if (body.startsWith("^")) body = "\\" + body;
        out += `[${body}]`;
        i = end;
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^(?:${out})$`, "s");
}

// The selection: each criterion a list of alternatives, every criterion given must match.
export function selects(selection, vector, topic) {
  const any = (list, test) => list.length === 0 || list.some(test);
  const cited = new Set([...vector.clauses, ...(vector.expected.violations ?? []), ...(vector.expected.undetermined ?? [])]);
  return any(selection.id, (p) => globToRegExp(p).test(vector.id))
    && any(selection.topic, (t) => t === topic)
    && any(selection.clause, (p) => [...cited].some((c) => globToRegExp(p).test(c)))
    && any(selection.endpoint, (e) => e === vector.endpoint)
    && any(selection.decision, (d) => d === (vector.decision ?? "none"))
    && any(selection.variant, (v) => v === vector.request.variant);
}

// Every vector of an export, in the order of its files (sorted by path) and lines.
export function loadExport(directory) {
  const out = [];
  for (const variant of readdirSync(directory).sort()) {
    const dir = join(directory, variant);
    if (!statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".json")).sort()) {
      const doc = JSON.parse(readFileSync(join(dir, name), "utf8"));
      const file = `${variant}/${name}`;
      if (doc.number_of_vectors !== doc.vectors.length) throw new Error(`${file}: its header counts ${doc.number_of_vectors} vectors, it holds ${doc.vectors.length}`);
      for (const vector of doc.vectors) out.push({ file, topic: doc.topic, vector });
    }
  }
  return out;
}

async function call(url, init) {
  const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(30000) });
  const text = await answer.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch { body = null; }
  return { status: answer.status, body };
}

export async function runVector(baseUrl, vector) {
  let answer;
  try {
    answer = await call(`${baseUrl}/v1/${vector.endpoint}`, {
      method: "POST", headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(vector.request),
    });
  } catch (err) {
    return { outcome: "error", detail: `${err.name}: ${err.message}` };
  }
  if (answer.status >= 500) return { outcome: "error", detail: `the target answered ${answer.status}` };
  const diffs = compare(vector.expected, answer.status, answer.body);
  if (diffs.length) return { outcome: "fail", detail: describe(diffs[0]) + (diffs.length > 1 ? ` (+${diffs.length - 1} more)` : "") };
  return { outcome: "pass", detail: "" };
}

const USAGE = "node runner.mjs --base-url URL --vectors DIR [--jsonl FILE] [-v] [selection options]";

export async function main(argv) {
  const repeat = { type: "string", multiple: true, default: [] };
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: {
      "base-url": { type: "string" }, vectors: { type: "string" }, jsonl: { type: "string" },
      verbose: { type: "boolean", short: "v", default: false }, "skip-decision": repeat,
      id: repeat, topic: repeat, clause: repeat, endpoint: repeat, decision: repeat, variant: repeat } }));
  } catch (err) {  // an unknown option, a missing value: one line, as a usage error
    console.error(`runner.mjs: ${err.message.split("\n")[0]} (usage: ${USAGE})`);
    return 2;
  }
  if (!values["base-url"] || !values.vectors) {
    console.error(`usage: ${USAGE}`);
    return 2;
  }
  const base = values["base-url"].replace(/\/+$/, "");
  const entries = loadExport(values.vectors).filter(({ vector, topic }) => selects(values, vector, topic));
  if (entries.length === 0) {  // running nothing is a mistake, not a pass
    console.error(`runner.mjs: no vector of ${values.vectors} matches the selection`);
    return 2;
  }
  let caps;
  try {
    const answer = await call(`${base}/v1/capabilities`, { headers: { accept: "application/json" } });
    if (answer.status !== 200 || answer.body === null || typeof answer.body !== "object") throw new Error(`answered ${answer.status}`);
    caps = answer.body;
  } catch (err) {
    console.error(`cannot ask ${base} what it supports: ${err.message}`);
    return 2;
  }
  const impl = caps.implementation ?? {};
  console.log(`target: ${impl.name} ${impl.version} at ${base}; claims vector suite ${caps.vector_suite?.version}`);
  const lines = [];
  const counts = { pass: 0, fail: 0, error: 0, skip: 0 };
  for (const { file, vector } of entries) {
    let result, seconds = 0;
    if (vector.decision && values["skip-decision"].includes(vector.decision)) {
      result = { outcome: "skip", detail: `depends on the referee's ruling ${vector.decision}, which the target does not share` };
    } else if (!(caps.variants ?? []).includes(vector.request.variant)) {
      result = { outcome: "skip", detail: `variant ${vector.request.variant} not supported by the target` };
    } else if (caps.endpoints && !caps.endpoints.includes(vector.endpoint)) {
      result = { outcome: "skip", detail: `endpoint ${vector.endpoint} not supported by the target` };
    } else {
      const t0 = performance.now();
      result = await runVector(base, vector);
      seconds = (performance.now() - t0) / 1000;
    }
    counts[result.outcome] += 1;
    if (result.outcome === "fail" || result.outcome === "error" || values.verbose) {
      console.log(`${result.outcome.toUpperCase().padEnd(5)} ${vector.id} [${file}] ${result.detail}`.trimEnd());
    }
    lines.push(JSON.stringify({ id: vector.id, file, variant: vector.request.variant, clauses: vector.clauses,
                                outcome: result.outcome, detail: result.detail, seconds: Math.round(seconds * 1e6) / 1e6 }));
  }
  if (values.jsonl) writeFileSync(values.jsonl, lines.map((l) => l + "\n").join(""));
  console.log(`vectors: ${counts.pass} passed, ${counts.fail} failed, ${counts.error} errors, ${counts.skip} skipped`);
  return counts.fail === 0 && counts.error === 0 ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
