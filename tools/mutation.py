"""The vector suite's strength, measured: a mutation run over the rule modules (cosmic-ray).

    python -m tools.mutation run [--sample 300] [--seed SEED] [--timeout 60] [--dir DIR] [--jobs 1]
    python -m tools.mutation resume [--dir DIR] [--jobs 1]     # a stopped run: its pending mutants
    python -m tools.mutation recheck [--dir DIR]    # the survivors again, against the vectors as they are now
    python -m tools.mutation report [--dir DIR]
    python -m tools.mutation vectors          # the test: every vector in process, stops at the first failure
    python -m tools.mutation failing          # the ids of every vector that fails (recheck's baseline)

``run`` copies the rules core, the web layer, the vectors and this tool into a scratch folder (the
repository's own files are never mutated), lists every mutant cosmic-ray can make in the rule
modules (``rules/*.py`` but the generated ``clause_ids.py``, the maintainer's ``clause_tools.py``
and the re-exports of ``__init__.py``), leaves out the mutants inside type annotations (never
evaluated: ``from __future__ import annotations``), draws the sample, marks every other mutant
skipped, and lets cosmic-ray apply each sampled mutant in turn and run ``vectors`` against it, in
``--jobs`` processes at once (each with its own scratch copy, default one).  A mutant is killed when the run fails (a vector fails or errors, the process
crashes, or it exceeds the timeout).

The sample.  The mutants are put in a fixed order (module, operator, occurrence); each module gets
its share of the sample in proportion to its number of mutants (largest remainders), and its
mutants are drawn by ``random.Random("<seed>:<module>")``.  The same sources, size and seed give
the same sample.

Held out or fitted.  Without ``--seed`` the run draws its seed at run time (``secrets``), so no
vector can have been written against its sample, and records it in ``DIR/run.json`` with the
commit, a digest of the vector files and the time.  ``report`` calls the figure *held out* only for
such a run whose vectors are still the ones it drew against: a run with a seed given (one used
before, or a ``train-`` seed a vector writer drew), or one rechecked after vectors were added for its
survivors, is reported as *fitted*, a figure of how well the vectors fit that sample, not of the
suite's strength.  Every figure comes with its 95% interval (Wilson's score interval).

The figure.  Survivors named in ``vectors/mutation-survivors.md`` (module, operator, occurrence and
the changed line, with the reason the mutant is equivalent) are left out of the denominator:
killed / (sampled - equivalent).  ``report`` prints it and every survivor still unexplained, with
its diff, and exits 1 while there is one (``vectors/mutation-survivors.md`` lists, apart from the
equivalents, the survivors no vector reaches, with the reason).
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import math
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SKIP = {"__init__.py", "clause_ids.py", "clause_tools.py"}
COPY = ("kalooki_referee", "rules", "api", "vectors", "tools", "openapi.yaml")
EQUIVALENTS = ROOT / "vectors" / "mutation-survivors.md"
DEFAULT_DIR = ROOT / "test-artifacts" / "mutation"


def modules(root: Path = ROOT) -> list[str]:
    """The rule modules mutated, as paths relative to the repository's root."""
    return sorted(p.relative_to(root).as_posix() for p in (root / "rules").rglob("*.py") if p.name not in SKIP)


# -- the test ------------------------------------------------------------------------------------

# In a scratch copy being rechecked: the ids of the vectors that fail on its unmutated rule modules
# (they test behaviour changed since the run), which the test leaves out.
LEFT_OUT = ".recheck-left-out"


def vectors_main(all_failures: bool = False, shard: tuple[int, int] = (0, 1)) -> int:
    """Every vector through the in-process service (the Flask test client), in file order; exit 1 at
    the first one that does not pass (``all_failures``: list every one that does not pass).  ``shard``
    ``(i, n)`` runs only every n-th vector from the i-th (the coverage tool's processes share them)."""
    import logging
    logging.disable(logging.CRITICAL)  # the request log is not wanted here
    from kalooki_referee.vectors.runner import in_process_poster, run_vector
    from kalooki_referee.vectors.suite import load_vectors
    post = in_process_poster()
    left_out = set(Path(LEFT_OUT).read_text(encoding="utf-8").split()) if Path(LEFT_OUT).exists() else set()
    count = failed = 0
    index, shards = shard
    for k, vector in enumerate(load_vectors()):
        if vector.id in left_out or k % shards != index:
            continue
        outcome, detail = run_vector(post, vector)
        if outcome != "pass" and all_failures:
            print(vector.id)
            failed += 1
            continue
        if outcome != "pass":
            print(f"{outcome.upper()}  {vector.id}: {detail}")
            return 1
        count += 1
    if all_failures:
        return 1 if failed else 0
    print(f"vectors: {count} passed")
    return 0


# -- the run -------------------------------------------------------------------------------------

def _annotation_lines(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The source spans of the type annotations in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spans = []
    for node in ast.walk(tree):
        notes = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            notes.append(node.returns)
        elif isinstance(node, ast.arg) and node.annotation is not None:
            notes.append(node.annotation)
        elif isinstance(node, ast.AnnAssign):
            notes.append(node.annotation)
        for n in notes:
            spans.append(((n.lineno, n.col_offset), (n.end_lineno or n.lineno, n.end_col_offset or 0)))
    return spans


def _inside(pos: tuple[int, int], spans: list[tuple[tuple[int, int], tuple[int, int]]]) -> bool:
    return any(start <= tuple(pos) < end for start, end in spans)


def _key(item: Any) -> tuple[str, str, int]:
    m = item.mutations[0]
    return (str(m.module_path), m.operator_name, m.occurrence)


def allocate(counts: dict[str, int], n: int) -> dict[str, int]:
    """``n`` shared among the modules in proportion to ``counts`` (largest remainders)."""
    total = sum(counts.values())
    if n >= total:
        return dict(counts)
    exact = {m: n * c / total for m, c in counts.items()}
    share = {m: int(x) for m, x in exact.items()}
    left = n - sum(share.values())
    for m in sorted(exact, key=lambda m: (share[m] - exact[m], m))[:left]:
        share[m] += 1
    return share


def draw(items: list[Any], n: int, seed: str) -> list[Any]:
    """The sample: each module's share, drawn by its own seeded generator, in the fixed order."""
    by_module: dict[str, list[Any]] = defaultdict(list)
    for item in sorted(items, key=_key):
        by_module[_key(item)[0]].append(item)
    share = allocate({m: len(v) for m, v in by_module.items()}, n)
    chosen: list[Any] = []
    for module in sorted(by_module):
        pool = by_module[module]
        picked = random.Random(f"{seed}:{module}").sample(range(len(pool)), share[module])
        chosen.extend(pool[i] for i in sorted(picked))
    return chosen


def prepare(workdir: Path) -> None:
    """A copy of what the test imports; run from it, ``kalooki_referee`` reads the copy's rules/, api/ and
    vectors/ (its checkout finder), not the repository's."""
    if workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True)
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, workdir / name,
                            ignore=shutil.ignore_patterns("__pycache__", "node_modules", "*.pyc"))
        else:
            shutil.copy2(src, workdir / name)


def vectors_digest(root: Path) -> str:
    """A digest of the vector files a run tests with (their paths and bytes)."""
    h = hashlib.sha256()
    for p in sorted((root / "vectors").rglob("*.json")):
        h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def _commit() -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--", "rules", "vectors"],
                           capture_output=True, text=True).stdout.strip()
    return (done.stdout.strip() or "unknown") + (" (with uncommitted changes to rules/ or vectors/)" if dirty else "")


def wilson(killed: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson's score interval (95%) for ``killed`` successes out of ``n``, in percent."""
    if n == 0:
        return 0.0, 100.0
    p = killed / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100.0 * max(0.0, centre - half), 100.0 * min(1.0, centre + half)


def run(args: argparse.Namespace) -> int:
    from cosmic_ray.commands import init
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    drawn = args.seed is None
    if drawn:
        args.seed = secrets.token_hex(6)
    out = Path(args.dir).resolve()
    tree = out / "tree"
    prepare(tree)
    for extra in _trees(out, args.jobs)[1:]:
        if extra.exists():
            shutil.rmtree(extra)
    session = out / "session.sqlite"
    if session.exists():
        session.unlink()
    record = {"seed": args.seed, "seed_drawn_at_run_time": drawn, "commit": _commit(),
              "vectors_digest": vectors_digest(tree), "sample": args.sample,
              "modules": args.module or "all", "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "rechecked": False}
    (out / "run.json").write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(f"seed {args.seed!r} ({'drawn at run time' if drawn else 'given'}), commit {record['commit']}", flush=True)
    os.chdir(tree)
    # the unmutated suite must pass first
    t0 = time.monotonic()
    base = subprocess.run([sys.executable, "-m", "tools.mutation", "vectors"], capture_output=True, text=True)
    if base.returncode != 0:
        print("the vectors fail on the unmutated code:\n" + base.stdout + base.stderr)
        return 2
    print(f"baseline: {base.stdout.strip()} in {time.monotonic() - t0:.1f} s")
    chosen_modules = args.module or modules(tree)
    unknown = sorted(set(chosen_modules) - set(modules(tree)))
    if unknown:
        print(f"not a rule module mutated here: {', '.join(unknown)}")
        return 2
    paths = [Path(m) for m in chosen_modules]
    with use_db(str(session), WorkDB.Mode.create) as db:
        init(paths, db, {})
        items = list(db.pending_work_items)
        spans = {str(p): _annotation_lines(p) for p in paths}
        in_notes = {i.job_id for i in items if _inside(i.mutations[0].start_pos, spans[str(i.mutations[0].module_path)])}
        candidates = [i for i in items if i.job_id not in in_notes]
        chosen = draw(candidates, args.sample, args.seed)
        keep = {i.job_id for i in chosen}
        skip = [i.job_id for i in items if i.job_id not in keep]
        db.set_multiple_results(skip, WorkResult(output="not in the sample", worker_outcome=WorkerOutcome.SKIPPED))
        print(f"mutants: {len(items)} in {len(paths)} modules, {len(in_notes)} in type annotations left out; "
              f"sample {len(chosen)} (seed {args.seed!r})", flush=True)
        t0 = time.monotonic()
        _execute(db, _trees(out, args.jobs), args.timeout)
        print(f"ran {len(chosen)} mutants in {time.monotonic() - t0:.0f} s ({args.jobs} at a time)")
    return report(args)


def _trees(out: Path, jobs: int) -> list[Path]:
    """The scratch copies a run with ``jobs`` processes mutates: ``tree``, then ``tree-2``... (copies of it)."""
    return [out / "tree"] + [out / f"tree-{k}" for k in range(2, jobs + 1)]


def _enter(trees: Any) -> None:
    """A worker process's start: it takes a scratch copy of its own and works in it."""
    os.chdir(trees.get())


def _mutate_and_test(mutations: Any, timeout: float) -> Any:
    from cosmic_ray.mutating import mutate_and_test
    return mutate_and_test(mutations, f"{sys.executable} -m tools.mutation vectors", timeout)


def _execute(db: Any, trees: list[Path], timeout: float) -> None:
    """Run the sampled mutants still pending, one process per scratch copy: cosmic-ray applies a
    mutant to the copy its process works in and runs the vectors there, and the result goes to the
    session as soon as it comes."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed
    for tree in trees[1:]:
        if not tree.exists():
            shutil.copytree(trees[0], tree)
    pending = list(db.pending_work_items)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    for tree in trees:
        queue.put(str(tree))
    done = 0
    with ProcessPoolExecutor(len(trees), mp_context=context, initializer=_enter, initargs=(queue,)) as pool:
        futures = {pool.submit(_mutate_and_test, item.mutations, timeout): item for item in pending}
        for future in as_completed(futures):
            db.set_result(futures[future].job_id, future.result())
            done += 1
            if done % 10 == 0 or done == len(pending):
                print(f"  {done}/{len(pending)} mutants run", flush=True)


def _config(args: argparse.Namespace) -> Any:
    from cosmic_ray.config import ConfigDict
    return ConfigDict({
        "module-path": [], "timeout": float(args.timeout), "excluded-modules": [],
        "test-command": f"{sys.executable} -m tools.mutation vectors",
        "distributor": ConfigDict({"name": "local"}),
    })


def resume(args: argparse.Namespace) -> int:
    """Run the sampled mutants a stopped run left pending, in the same scratch copies."""
    from cosmic_ray.work_db import WorkDB, use_db
    out = Path(args.dir).resolve()
    with use_db(str(out / "session.sqlite"), WorkDB.Mode.open) as db:
        _execute(db, _trees(out, args.jobs), args.timeout)
    return report(args)


def recheck(args: argparse.Namespace) -> int:
    """Run every unexplained survivor again against the repository's vectors as they are now (after
    vectors were added to kill survivors): the scratch copy's vectors and tools are replaced, its rule
    modules kept (the mutants were made on them), the vectors that fail on those unmutated modules
    (they test a fix made since) left out, and each survivor's result replaced by the new one."""
    from cosmic_ray.mutating import mutate_and_test
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome
    out = Path(args.dir).resolve()
    tree = out / "tree"
    for name in ("vectors", "tools"):  # (neither is mutated; the rule modules stay as the run had them)
        shutil.rmtree(tree / name)
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
    os.chdir(tree)
    # A vector added since the run for behaviour the rule modules did not yet have (a fix) fails on
    # the unmutated copy: it would "kill" every mutant, so it is left out of the recheck.
    Path(LEFT_OUT).unlink(missing_ok=True)
    base = subprocess.run([sys.executable, "-m", "tools.mutation", "failing"], capture_output=True, text=True)
    left_out = base.stdout.split()
    Path(LEFT_OUT).write_text("\n".join(left_out) + "\n", encoding="utf-8")
    if left_out:
        print(f"{len(left_out)} vectors fail on the unmutated copy (behaviour changed since the run) and are "
              f"left out: {', '.join(left_out)}", flush=True)
    record_path = out / "run.json"
    if record_path.exists():  # vectors written since the draw: the run's figure is now a fitted one
        record = json.loads(record_path.read_text(encoding="utf-8"))
        record["rechecked"] = True
        record_path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    known = equivalents()
    with use_db(str(out / "session.sqlite"), WorkDB.Mode.open) as db:
        again = [item for item, result in db.completed_work_items
                 if result.worker_outcome == WorkerOutcome.NORMAL and result.test_outcome == TestOutcome.SURVIVED
                 and not _explained(item, known)]
        for item in sorted(again, key=_key):
            result = mutate_and_test(item.mutations, _config(args).test_command, float(args.timeout))
            db.set_result(item.job_id, result)
            print(f"{_key(item)}: {result.test_outcome}", flush=True)
    return report(args)


# -- the report ----------------------------------------------------------------------------------

ROW = re.compile(r"^\|\s*`?(rules/[\w./]+)`?\s*\|\s*`?([\w/]+)`?\s*\|\s*(\d+)(?:\s*\(line (\d+)\))?\s*\|\s*([\w-]*)\s*\|")

# The kinds of equivalent mutant: why no request can tell the mutant from the referee.  Every row of
# the survivors' file names one (its fourth cell); the report counts them by kind.
KINDS = {
    "same-value": "the mutated expression gives the same value for every input that can reach it "
                  "(an arithmetic or index identity, a test that cannot differ on the values there)",
    "closed-string-order": "an order comparison between members of a closed set of strings (an enum, "
                           "the literals of a loop) where the mutated test holds exactly when the original does",
    "interned-identity": "`is` for `==` (or `is not` for `!=`) between values CPython keeps one object "
                         "of each (small ints, enum members, the string literals the code itself writes)",
    "guard-never-tripped": "removes a guard (a frozen or slotted dataclass, an assertion) that no path "
                           "through the API trips",
    "behind-the-contract": "reached only with input that openapi.yaml's shape check refuses first",
    "dead-path": "reached only in a state no request can produce (the rules refuse it earlier)",
    "unread-value": "changes a value that nothing reads afterwards",
    "cache-size": "the size of a cache, which changes no answer",
}


def equivalents(path: Path = EQUIVALENTS) -> dict[tuple[str, str, int, int | None], str]:
    """The survivors shown equivalent: (module, operator, occurrence, line) of each table row (the
    line where the row gives it, as ``12 (line 140)``: two mutants of one operator can share an
    occurrence number across edits, never a line as well), with the row's kind."""
    if not path.exists():
        return {}
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            found[(m.group(1), m.group(2), int(m.group(3)), int(m.group(4)) if m.group(4) else None)] = m.group(5)
    return found


def _kind(item: Any, known: dict[tuple[str, str, int, int | None], str]) -> str:
    key = _key(item)
    return known.get(key + (item.mutations[0].start_pos[0],)) or known.get(key + (None,)) or ""


def _explained(item: Any, known: dict[tuple[str, str, int, int | None], str]) -> bool:
    """Whether a row of ``known`` names the mutant ``item`` (by its line too, where the row gives it)."""
    key = _key(item)
    return key + (item.mutations[0].start_pos[0],) in known or key + (None,) in known


def report(args: argparse.Namespace) -> int:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome

    session = Path(args.dir).resolve() / "session.sqlite"
    if not session.exists():
        print(f"no session at {session}: run `python -m tools.mutation run` first")
        return 2
    known = equivalents()
    tally: Counter[str] = Counter()
    by_kind: Counter[str] = Counter()
    per_module: dict[str, Counter[str]] = defaultdict(Counter)
    unexplained = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        done = sorted(db.completed_work_items, key=lambda pair: _key(pair[0]))
        pending = sum(1 for _ in db.pending_work_items)
    for item, result in done:
        if result.worker_outcome == WorkerOutcome.SKIPPED:
            continue
        key = _key(item)
        if result.worker_outcome != WorkerOutcome.NORMAL:
            outcome = "error"  # cosmic-ray could not apply the mutant or run the test
        elif result.test_outcome == TestOutcome.KILLED:
            outcome = "timeout" if result.output == "timeout" else "killed"
        elif _explained(item, known):
            outcome = "equivalent"
            by_kind[_kind(item, known)] += 1
        else:
            outcome = "survived"
            unexplained.append((key, item.mutations[0].start_pos, result.diff or ""))
        tally[outcome] += 1
        per_module[key[0]][outcome] += 1
    ran = sum(tally.values())
    killed = tally["killed"] + tally["timeout"]
    judged = ran - tally["equivalent"] - tally["error"]
    for module in sorted(per_module):
        c = per_module[module]
        print(f"  {module:24} {sum(c.values()):4} sampled  {c['killed'] + c['timeout']:4} killed  "
              f"{c['equivalent']:3} equivalent  {c['survived']:3} surviving")
    for key, pos, diff in unexplained:
        print(f"\nSURVIVED {key[0]} | {key[1]} | {key[2]} | line {pos[0]}")
        print("\n".join(line for line in diff.splitlines() if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))))
    share = 100.0 * killed / judged if judged else 0.0
    low, high = wilson(killed, judged)
    print(f"\nmutants: {ran} run ({pending} pending), {killed} killed ({tally['timeout']} by the timeout), "
          f"{tally['equivalent']} equivalent, {tally['survived']} surviving unexplained, {tally['error']} not run")
    if by_kind:
        print("equivalent, by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(by_kind.items(), key=lambda kv: (-kv[1], kv[0]))))
    print(f"killed: {killed}/{judged} non-equivalent mutants = {share:.1f}% (95% interval {low:.1f}-{high:.1f}%)")
    print(held_out(Path(args.dir).resolve()))
    return 0 if not unexplained else 1


def held_out(out: Path) -> str:
    """Whether the run's figure is held out (see the module's description), in a sentence."""
    path = out / "run.json"
    if not path.exists():
        return "figure: fitted (the run left no record of how its seed was chosen)"
    record = json.loads(path.read_text(encoding="utf-8"))
    where = f"seed {record['seed']!r}, commit {record['commit']}, drawn {record['started']}"
    if not record.get("seed_drawn_at_run_time"):
        return f"figure: fitted, not held out: the seed was given, not drawn at run time ({where})"
    if record.get("rechecked"):
        return f"figure: fitted, not held out: rechecked after vectors were written against this sample ({where})"
    return f"figure: held out: the seed was drawn at run time and no vector was written against the sample ({where})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.mutation", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="mutate a sample of the rule modules and run the vectors against each")
    r.add_argument("--sample", type=int, default=300, help="how many mutants (default 300)")
    r.add_argument("--seed", default=None,
                   help="the sample's seed (default: drawn at run time, which makes the figure a held-out one)")
    r.add_argument("--timeout", type=float, default=60.0, help="seconds before a mutant's run counts as killed")
    r.add_argument("--dir", default=str(DEFAULT_DIR), help="the scratch folder (default test-artifacts/mutation)")
    r.add_argument("--module", action="append", help="only this module, e.g. rules/shuffle.py (repeatable; default all)")
    r.add_argument("--jobs", type=int, default=1, help="mutants run at once, each in its own scratch copy (default 1)")
    p = sub.add_parser("report", help="the figure and the unexplained survivors of the last run")
    p.add_argument("--dir", default=str(DEFAULT_DIR))
    for name, what in (("resume", "run the sampled mutants a stopped run left pending"),
                       ("recheck", "run the unexplained survivors again against the vectors as they are now")):
        q = sub.add_parser(name, help=what)
        q.add_argument("--timeout", type=float, default=60.0)
        q.add_argument("--dir", default=str(DEFAULT_DIR))
        if name == "resume":
            q.add_argument("--jobs", type=int, default=1)
    sub.add_parser("vectors", help="the test: every vector in process, stopping at the first failure")
    sub.add_parser("failing", help="the ids of every vector that fails, one per line")
    args = parser.parse_args(argv)
    if getattr(args, "dir", None):
        args.dir = str(Path(args.dir).resolve())  # the commands move into the scratch copy; the folder is the one given
    if args.command in ("vectors", "failing"):
        return vectors_main(all_failures=args.command == "failing")
    if args.command in ("run", "resume", "recheck"):
        return {"run": run, "resume": resume, "recheck": recheck}[args.command](args)
    return report(args)


if __name__ == "__main__":
    sys.exit(main())
