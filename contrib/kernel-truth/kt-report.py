#!/usr/bin/env python3
"""kt-report.py - the reports of `make kernel-truth` from the records of
contrib/stealfs/tests/kt-guest.sh (one file per kernel and boot, named
KERNEL.BOOT.rec).

  kt-report.py assemble OUT.json REC...   verdicts with their raw measurements
  kt-report.py markdown IN.json           the Markdown table, on stdout
  kt-report.py plot IN.json OUT.png       throughput per kernel (gnuplot)
  kt-report.py check IN.json              exit 1 when a verdict disagrees with
                                          its raw measurement (the tests use it)
  kt-report.py validate IN.json SCHEMA    exit 1 when IN.json does not follow
                                          the JSON schema, 77 without
                                          python3-jsonschema

Every verdict is copied from a measurement or computed here from raw figures
that stay beside it; where none answers, the verdict is "cannot tell" with
the reason.
"""
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

SCHEMA_VERSION = 1
FILE_SYSTEMS = ("tmpfs", "ext4", "stealfs")
# The probe's page measurements behind the pipe -> file questions.
PIPE_TO_FILE = {
    "page_cache_without_move": "pagecache_splice",
    "page_cache_with_move": "pagecache_move",
    "gift_with_move": "gift_move",
    "write_pages_with_move": "anon_move",
}
# The power-cut rows: file systems and what kt-powercut does on each.
POWER_CUT_FS = ("xfs", "ext4", "btrfs")
POWER_CUT_CASES = {
    "rename": "write + rename over a name, no fsync",
    "trunc": "write in place after O_TRUNC (as cp), no fsync",
    "tmpfile": "O_TMPFILE file linked in as a new name, no fsync",
    "spmove": "spmove SRC over an existing DST",
}
SCENARIOS = ("plain", "lazy", "bind", "remount-ro", "nearly-full", "exiting", "switch", "foreign")


def parse_records(path):
    """The records of one file: a dict of lists by kind."""
    out = {"probe": {}, "counters": {}, "acct": None, "acct-foreign": None, "bench": [],
           "powercut": {}, "note": [], "boot": None}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\r\n")
            kind, _, rest = line.partition(" ")
            try:
                if kind == "probe":
                    fs, _, doc = rest.partition(" ")
                    out["probe"][fs] = json.loads(doc)
                elif kind == "counters":
                    fs, when, doc = rest.split(" ", 2)
                    out["counters"].setdefault(fs, {})[when] = json.loads(doc)
                elif kind in ("acct", "acct-foreign"):
                    out[kind] = json.loads(rest)
                elif kind == "bench":
                    case, target, side, run, ns, nbytes = rest.split()
                    out["bench"].append({"case": case, "target": target, "side": side,
                                         "run": int(run), "ns": int(ns), "bytes": int(nbytes)})
                elif kind == "powercut":
                    fs, _, doc = rest.partition(" ")
                    out["powercut"][fs] = json.loads(doc)
                elif kind == "note":
                    out["note"].append(rest)
                elif kind == "boot":
                    out["boot"] = int(rest)
            except (ValueError, json.JSONDecodeError) as e:
                out["note"].append("unreadable record (%s): %s" % (e, line[:200]))
    return out


def cannot_tell(reason):
    return {"verdict": "cannot tell", "reason": reason, "raw": None}


def from_probe(probe, fs, key):
    """A verdict as the probe on fs measured it, with its evidence as raw."""
    if probe is None:
        return cannot_tell("not measured: no %s was mounted on this kernel" % fs)
    m = probe["pages"][key]
    raw = dict(m["evidence"])
    raw["pages"] = m["pages"]
    raw["error"] = m["error"]
    raw["frames_readable"] = probe["frames_readable"]
    return {"verdict": m["verdict"], "reason": m["reason"], "raw": raw}


def stealfs_answer(counters, probe):
    """stealfs's own counters over the probe on it, with the frame evidence."""
    if not counters or "before" not in counters or "after" not in counters:
        return cannot_tell("stealfs is not loaded on this kernel")
    before, after = counters["before"], counters["after"]
    delta = {k: after[k] - before[k] for k in after if k in before}
    refused = sum(v for k, v in delta.items() if k.startswith("refused_"))
    stolen = delta.get("stolen_anon", 0) + delta.get("stolen_pagecache", 0)
    frames = [from_probe(probe, "stealfs", k)["raw"] for k in ("pagecache_move", "gift_move")]
    return {
        "verdict": "steals" if stolen else "copies" if delta.get("copied", 0) else "cannot tell",
        "reason": None if stolen or delta.get("copied", 0) else "the probe moved no pages through it",
        "stolen_anon": delta.get("stolen_anon", 0),
        "stolen_pagecache": delta.get("stolen_pagecache", 0),
        "refused_gift": delta.get("refused_gift", 0),
        "refused": refused,
        "copied": delta.get("copied", 0),
        "raw": {"before": before, "after": after, "frames": frames},
    }


def accounting(doc, foreign):
    """Per scenario: unmount, whether accounting stopped, last record, and
    which expectation the kernel met, from acctpin run --json's checks (the
    foreign file: the plain scenario with --acct-file --allow-foreign)."""
    rows = []
    for s in SCENARIOS:
        src, name = (foreign, "plain") if s == "foreign" else (doc, s)
        if src is None:
            rows.append(dict(cannot_tell("acctpin run --json did not run"), scenario=s))
            continue
        checks = [c for c in src["checks"] if c["scenario"] == name]
        if not checks:
            rows.append(dict(cannot_tell("acctpin run did not play this scenario"), scenario=s))
            continue
        by = {c["check"]: c for c in checks}
        off = by.get("acct-off", {}).get("detail", "")
        stopped = True if "accounting off" in off else False if "accounting on" in off else None
        held = [c for c in checks if not c["skipped"]]
        rows.append({
            "scenario": s,
            "verdict": ("matches " + src["expect"]) if all(c["ok"] for c in held)
            else "differs from " + src["expect"],
            "reason": None,
            "unmount": by.get("unmount", {}).get("detail"),
            "accounting_stopped": stopped,
            "last_record": by.get("last-record", {}).get("detail"),
            "raw": {"expect": src["expect"], "fs": src["fs"], "acct_file": src.get("acct_file"),
                    "checks": checks},
        })
    return rows


def power_cut(records):
    """Per file system and case: what the name held after the power cut
    (old, new, empty, missing, mixed), with kt-powercut's record as raw;
    whether that keeps the promise "old or new" (a new name: "new" or
    nothing)."""
    out = {}
    for fs in POWER_CUT_FS:
        rec = records.get(fs)
        out[fs] = {}
        for case in POWER_CUT_CASES:
            if rec is None:
                out[fs][case] = cannot_tell("no power cut measured: kt-powercut.sh runs on "
                                            "the host only, on the file systems it can make")
                continue
            got = rec["cases"][case]
            out[fs][case] = {"verdict": got["outcome"], "reason": None,
                             "raw": {"cut": rec["cut"], "bytes": rec["bytes"],
                                     "size": got["size"]}}
    return out


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def bench(samples):
    """Comparisons: each side's MiB/s and the ratio of side b's time to side
    a's, run by run (pairs of the same boot and run), median and min-max."""
    out = []
    keys = sorted({(s["case"], s["target"]) for s in samples})
    for case, target in keys:
        rows = [s for s in samples if (s["case"], s["target"]) == (case, target)]
        sides = []
        for s in rows:
            if s["side"] not in sides:
                sides.append(s["side"])
        if len(sides) != 2:
            continue
        runs = {}
        for s in rows:
            runs.setdefault((s["boot"], s["run"]), {})[s["side"]] = s
        pairs = [r for r in runs.values() if len(r) == 2]
        ratio = [r[sides[1]]["ns"] / r[sides[0]]["ns"] for r in pairs]
        mibs = {side: [r[side]["bytes"] / 1048576 / (r[side]["ns"] / 1e9) for r in pairs]
                for side in sides}
        rs = spread(ratio)
        out.append({
            "case": case, "target": target, "a": sides[0], "b": sides[1],
            "runs": len(pairs), "boots": len({b for b, _ in runs}),
            "a_mib_s": spread(mibs[sides[0]]), "b_mib_s": spread(mibs[sides[1]]),
            "ratio_b_time_to_a": rs,
            "verdict": "no difference" if rs["min"] <= 1.0 <= rs["max"]
            else "%s faster" % (sides[0] if rs["min"] > 1.0 else sides[1]),
            "raw": [{"boot": r[sides[0]]["boot"], "run": r[sides[0]]["run"],
                     "a_ns": r[sides[0]]["ns"], "b_ns": r[sides[1]]["ns"],
                     "bytes": r[sides[0]]["bytes"]} for r in pairs],
        })
    return out


def kernel_entry(name, boots):
    """One kernel's object from its boots' records."""
    first = boots[min(boots)]
    probes = first["probe"]
    tmpfs = probes.get("tmpfs")
    release = next((p["kernel"] for p in probes.values()), None)
    if release is None and first["acct"]:
        release = first["acct"]["kernel"]
    samples = [dict(s, boot=b) for b, rec in boots.items() for s in rec["bench"]]
    return {
        "name": name,
        "release": release,
        "where": "host" if name == "host" else "qemu",
        "stealfs_module": "loaded" if "stealfs" in probes else "absent",
        "boots": len(boots),
        "notes": [n for rec in boots.values() for n in rec["note"]],
        "questions": {
            "file_to_pipe": from_probe(tmpfs, "tmpfs", "splice_in"),
            "pipe_to_file": {fs: {q: from_probe(probes.get(fs), fs, k)
                                  for q, k in PIPE_TO_FILE.items()} for fs in FILE_SYSTEMS},
            "vmsplice": from_probe(tmpfs, "tmpfs", "vmsplice_anon"),
            "vmsplice_gift": from_probe(tmpfs, "tmpfs", "vmsplice_gift"),
            "tee": from_probe(tmpfs, "tmpfs", "tee"),
            "stealfs": stealfs_answer(first["counters"].get("stealfs"), probes.get("stealfs")),
        },
        "accounting": accounting(first["acct"], first["acct-foreign"]),
        "power_cut": power_cut(first["powercut"]),
        "bench": bench(samples),
        "probes": probes,
    }


def assemble(out, paths):
    kernels = {}
    for p in paths:
        base = os.path.basename(p)[:-len(".rec")]
        name, _, boot = base.rpartition(".")
        kernels.setdefault(name, {})[int(boot)] = parse_records(p)
    order = ["host"] + sorted(k for k in kernels if k != "host")
    doc = {
        "schema_version": SCHEMA_VERSION,
        "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "host": platform.node(),
        "kernels": [kernel_entry(k, kernels[k]) for k in order if k in kernels],
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")


# The reasons of the table's "cannot tell" cells, numbered as footnotes.
REASONS = []


def footnote(reason):
    """"cannot tell" with the number of its reason below the table."""
    if reason not in REASONS:
        REASONS.append(reason)
    return "cannot tell [%d]" % (REASONS.index(reason) + 1)


def short(answer):
    """A verdict and the figure it rests on, for a table cell."""
    v, raw = answer["verdict"], answer.get("raw") or {}
    if v == "cannot tell":
        return footnote(answer["reason"])
    bits = []
    if raw.get("frames_checked"):
        bits.append("%d/%d frames" % (raw["frames_same"], raw["frames_checked"]))
    if raw.get("byte_after_write"):
        bits.append("'%s' after write" % raw["byte_after_write"])
    if raw.get("stealfs_pages_moved") is not None and not bits:
        bits.append("stealfs: %d moved" % raw["stealfs_pages_moved"])
    return v + (" (" + ", ".join(bits) + ")" if bits else "")


def markdown(path):
    doc = json.load(open(path, encoding="utf-8"))
    ks = doc["kernels"]
    w = sys.stdout.write
    w("Measured by `make kernel-truth` on %s, %s.\n\n" % (doc["host"], doc["generated"]))
    head = ["question"] + ["%s (%s)" % (k["name"], k["release"]) for k in ks]
    w("| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n")

    def row(label, cells):
        w("| " + label + " | " + " | ".join(cells) + " |\n")

    q = [k["questions"] for k in ks]
    row("file → pipe: pipe holds the page-cache page", [short(x["file_to_pipe"]) for x in q])
    for fs in FILE_SYSTEMS:
        for key, label in (("page_cache_without_move", "page cache"),
                           ("page_cache_with_move", "page cache, -M"),
                           ("gift_with_move", "gifted pages, -M"),
                           ("write_pages_with_move", "write(2) pages, -M")):
            row("pipe → %s: %s" % (fs, label), [short(x["pipe_to_file"][fs][key]) for x in q])
    row("vmsplice: pipe references user pages", [short(x["vmsplice"]) for x in q])
    row("vmsplice SPLICE_F_GIFT", [short(x["vmsplice_gift"]) for x in q])
    row("tee(2): second pipe shares the frames", [short(x["tee"]) for x in q])

    def steal(a):
        if a["verdict"] == "cannot tell":
            return footnote(a["reason"])
        return "%s: stolen %d anon + %d page cache, %d copied, %d refused (%d gifts)" % (
            a["verdict"], a["stolen_anon"], a["stolen_pagecache"], a["copied"], a["refused"],
            a["refused_gift"])
    row("stealfs counters over the probe", [steal(x["stealfs"]) for x in q])
    for s in SCENARIOS:
        cells = []
        for k in ks:
            a = next(r for r in k["accounting"] if r["scenario"] == s)
            if a["verdict"] == "cannot tell":
                cells.append(footnote(a["reason"]))
            else:
                unmount = (a["unmount"] or "").rpartition(" returned ")[2].split(" (")[0]
                last = (a["last_record"] or "").partition("last record: ")[2].split(" (")[0]
                cells.append("%s: umount %s, accounting %s, last %s" % (
                    a["verdict"], unmount or "?",
                    {True: "stopped", False: "went on", None: "?"}[a["accounting_stopped"]],
                    last or "?"))
        row("acct vs unmount: " + s, cells)
    # Reports from before the power-cut rows have none.
    for fs in POWER_CUT_FS if any("power_cut" in k for k in ks) else ():
        for case, label in POWER_CUT_CASES.items():
            cells = []
            for k in ks:
                a = k.get("power_cut", {}).get(fs, {}).get(case)
                if a is None or a["verdict"] == "cannot tell":
                    cells.append(footnote(a["reason"] if a else "not measured by this run"))
                else:
                    cells.append("%s (%d bytes; %s)" % (a["verdict"], a["raw"]["size"],
                                                        a["raw"]["cut"]))
            row("power cut, %s: %s" % (fs, label), cells)
    cases = sorted({(b["case"], b["target"], b["a"], b["b"]) for k in ks for b in k["bench"]})
    for case, target, a, b in cases:
        cells = []
        for k in ks:
            r = next((x for x in k["bench"] if (x["case"], x["target"]) == (case, target)), None)
            if r is None:
                cells.append("not measured")
                continue
            rt = r["ratio_b_time_to_a"]
            cells.append("%.0f vs %.0f MiB/s; ×%.2f (%.2f–%.2f): %s" % (
                r["a_mib_s"]["median"], r["b_mib_s"]["median"], rt["median"], rt["min"],
                rt["max"], r["verdict"]))
        row("bench %s → %s: %s vs %s" % (case, target, a, b), cells)
    w("\nCells: the verdict and what it rests on (frames: destination pages whose physical "
      "frame was the source's, from /proc/self/pagemap; 'B' after write: the destination "
      "changed when the source did). Bench: median MiB/s of each side, the ratio of b's time "
      "to a's with min–max over %s; a spread that crosses 1.0 is no difference.\n"
      % ", ".join("%s: %d runs, %d boots" % (k["name"], r["runs"], r["boots"])
                  for k in ks for r in k["bench"][:1]))
    for i, reason in enumerate(REASONS):
        w("\n[%d] %s\n" % (i + 1, reason))


def plot(path, png):
    doc = json.load(open(path, encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        dat = os.path.join(tmp, "kt.dat")
        n = 0
        with open(dat, "w") as f:
            for k in doc["kernels"]:
                for r in k["bench"]:
                    for side in ("a", "b"):
                        m = r[side + "_mib_s"]
                        f.write('%d "%s %s %s %s" %f %f %f\n' % (
                            n, k["name"], r["case"], r["target"], r[side], m["median"],
                            m["min"], m["max"]))
                        n += 1
        script = ("set terminal png size %d,600\nset output '%s'\n"
                  "set title 'kernel-truth: throughput per kernel and path (median, min-max)'\n"
                  "set ylabel 'MiB/s'\nset style fill solid 0.5\nset boxwidth 0.7\n"
                  "set xtics rotate by -45 font ',8'\nset yrange [0:*]\nset rmargin 10\nunset key\n"
                  "plot '%s' using 1:3:xtic(2) with boxes, '' using 1:3:4:5 with yerrorbars "
                  "pt 0 lc rgb 'black'\n") % (max(800, 40 * n), png, dat)
        if n == 0:
            script = ("set terminal png\nset output '%s'\nset label 'no bench measured' at 0,0\n"
                      "plot [-1:1][-1:1] 1/0 notitle\n") % png
        subprocess.run(["gnuplot"], input=script, text=True, check=True)


def check(path):
    """Every verdict agrees with its raw measurement; prints what does not."""
    doc = json.load(open(path, encoding="utf-8"))
    bad = []

    def page(where, a):
        v, raw = a["verdict"], a["raw"]
        if v == "cannot tell":
            if not a["reason"]:
                bad.append(where + ": cannot tell without a reason")
            return
        if raw is None:
            bad.append(where + ": a verdict without raw measurement")
            return
        frames = raw.get("frames_checked") or 0
        resident = raw.get("source_resident")
        stealfs = raw.get("stealfs_pages_moved")
        byte = raw.get("byte_after_write")
        ok = {
            "shared": byte == "B",
            "copied": (frames and raw["frames_same"] == 0 and byte != "B")
            or (not frames and (byte == "A" or resident == raw.get("pages") or stealfs == 0)),
            "moved": (frames and raw["frames_same"] > 0 and byte != "B")
            or (not frames and ((resident is not None and resident < raw.get("pages"))
                                or (stealfs or 0) > 0)),
            "refused": raw.get("error") is not None,
        }.get(v, False)
        if not ok:
            bad.append("%s: %s disagrees with %s" % (where, v, json.dumps(raw)))

    for k in doc["kernels"]:
        q = k["questions"]
        for name in ("file_to_pipe", "vmsplice", "vmsplice_gift", "tee"):
            page("%s %s" % (k["name"], name), q[name])
        for fs, qs in q["pipe_to_file"].items():
            for name, a in qs.items():
                page("%s pipe_to_file %s %s" % (k["name"], fs, name), a)
        s = q["stealfs"]
        if s["verdict"] != "cannot tell":
            r = s["raw"]
            d = {c: r["after"][c] - r["before"][c] for c in r["after"]}
            want = "steals" if d["stolen_anon"] + d["stolen_pagecache"] else \
                "copies" if d["copied"] else "cannot tell"
            if (want != s["verdict"] or d["stolen_anon"] != s["stolen_anon"]
                    or d["copied"] != s["copied"] or d["refused_gift"] != s["refused_gift"]):
                bad.append("%s stealfs: counters disagree with the verdict" % k["name"])
        for a in k["accounting"]:
            if a["verdict"] == "cannot tell":
                continue
            held = [c for c in a["raw"]["checks"] if not c["skipped"]]
            want = ("matches " if all(c["ok"] for c in held) else "differs from ") + \
                a["raw"]["expect"]
            if want != a["verdict"]:
                bad.append("%s accounting %s: %s, checks say %s" % (k["name"], a["scenario"],
                                                                     a["verdict"], want))
        for fs, per in k.get("power_cut", {}).items():
            for case, a in per.items():
                if a["verdict"] == "cannot tell":
                    continue
                size, full = a["raw"]["size"], a["raw"]["bytes"]
                fits = {"missing": size == -1, "empty": size == 0,
                        "old": size == full, "new": size == full, "mixed": size > 0}
                if not fits.get(a["verdict"], False):
                    bad.append("%s power cut %s %s: %s with size %d" % (
                        k["name"], fs, case, a["verdict"], size))
        for b in k["bench"]:
            ratios = [r["b_ns"] / r["a_ns"] for r in b["raw"]]
            rt = b["ratio_b_time_to_a"]
            if (abs(statistics.median(ratios) - rt["median"]) > 1e-9
                    or abs(min(ratios) - rt["min"]) > 1e-9 or abs(max(ratios) - rt["max"]) > 1e-9):
                bad.append("%s bench %s %s: ratio does not follow from the runs"
                           % (k["name"], b["case"], b["target"]))
            crosses = rt["min"] <= 1.0 <= rt["max"]
            if crosses != (b["verdict"] == "no difference"):
                bad.append("%s bench %s %s: %s with ratio spread %.3f-%.3f" % (
                    k["name"], b["case"], b["target"], b["verdict"], rt["min"], rt["max"]))
    for line in bad:
        print(line)
    return 1 if bad else 0


def validate(path, schema_path):
    """Check path against the schema; prints each violation."""
    try:
        import jsonschema
    except ImportError:
        print("python3-jsonschema is not installed")
        return 77
    schema = json.load(open(schema_path, encoding="utf-8"))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(
        json.load(open(path, encoding="utf-8"))))
    for e in errors:
        print("/".join(str(p) for p in e.absolute_path) + ": " + e.message[:300])
    return 1 if errors else 0


def main(argv):
    if len(argv) >= 3 and argv[1] == "assemble":
        assemble(argv[2], argv[3:])
    elif len(argv) == 3 and argv[1] == "markdown":
        markdown(argv[2])
    elif len(argv) == 4 and argv[1] == "plot":
        plot(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "check":
        return check(argv[2])
    elif len(argv) == 4 and argv[1] == "validate":
        return validate(argv[2], argv[3])
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
