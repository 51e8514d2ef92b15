#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
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

SCHEMA_VERSION = 3
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
# The questions whose pipe holds references to the pages it was given (a
# file's page cache by splice, user memory by vmsplice, the first pipe's
# buffers by tee): the probe's "shared" ('B' read back after the source was
# written) means referenced, not copied -- not a shared mapping nor a pin.
REFERENCED = "referenced, not copied"
# Why SPLICE_F_GIFT cannot be told from a plain vmsplice by the probe.
GIFT_NOT_EXERCISED = (
    "SPLICE_F_GIFT not exercised: the probe reads the gifted pages back with read(2), and "
    "pipe_read() never tries to steal a buffer, so a gift and a plain vmsplice take the same "
    "path (both 'B' after write: referenced); the consumer that tries to steal is stealfs, "
    "row \"pipe → stealfs: gifted pages, -M\"")
# The power cuts that stop a file system at one instant, and the others
# with why their rows say "cannot tell" (kt-powercut.sh says how each is
# made).
ATOMIC_CUTS = ("shutdown ioctl, journal written", "dm device suspended without freeze, copied")
LIVE_COPY = ("a copy of the device taken while the file system was mounted and writing is not "
             "one instant (no device mapper for an atomic cut)")
BTRFS_LOGFLUSH = ("btrfs's shutdown ioctl with the journal written (LOGFLUSH) freezes the file "
                  "system first, which writes all its data: the rows show a sync, not a cut")
# What one cut point shows, by what the name held after it: a single cut
# can show that a file can come back empty (or old, or mixed), never that
# it always comes back whole.
POWER_CUT_WORDS = {"empty": "can come back empty", "mixed": "can come back mixed",
                   "missing": "missing at this cut", "old": "old at this cut",
                   "new": "new at this cut"}
SCENARIOS = ("plain", "lazy", "bind", "remount-ro", "nearly-full", "exiting", "switch", "foreign")


def parse_records(path):
    """The records of one file: a dict of lists by kind."""
    out = {"probe": {}, "counters": {}, "frames": {}, "acct": None, "acct-foreign": None,
           "bench": [], "powercut": {}, "note": [], "boot": None}
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
                elif kind == "frames":
                    what, same, checked, byte = rest.split()
                    out["frames"][what] = {"frames_same": int(same), "frames_checked": int(checked),
                                           "byte_after_write": byte}
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


def from_probe(probe, fs, key, referenced=False):
    """A verdict as the probe on fs measured it, with its evidence as raw
    (referenced: the pipe holds references, so "shared" reads "referenced,
    not copied")."""
    if probe is None:
        return cannot_tell("not measured: no %s was mounted on this kernel" % fs)
    m = probe["pages"][key]
    raw = dict(m["evidence"])
    raw["pages"] = m["pages"]
    raw["error"] = m["error"]
    raw["frames_readable"] = probe["frames_readable"]
    verdict = REFERENCED if referenced and m["verdict"] == "shared" else m["verdict"]
    return {"verdict": verdict, "reason": m["reason"], "raw": raw}


def gift_answer(probe):
    """vmsplice with SPLICE_F_GIFT: "cannot tell" (not exercised), the
    probe's measurement kept as raw."""
    a = from_probe(probe, "tmpfs", "vmsplice_gift", referenced=True)
    if a["verdict"] != "cannot tell":
        a = {"verdict": "cannot tell", "reason": GIFT_NOT_EXERCISED, "raw": a["raw"]}
    return a


def steal_verdict(delta, majority):
    """"steals" when any page was stolen (majority: when more were stolen
    than copied), "copies" when pages were copied, else "cannot tell"."""
    stolen = delta.get("stolen_anon", 0) + delta.get("stolen_pagecache", 0)
    copied = delta.get("copied", 0)
    if majority:
        return "steals" if stolen > copied else "copies" if stolen + copied else "cannot tell"
    return "steals" if stolen else "copies" if copied else "cannot tell"


def stealfs_answer(counters, probe, missing="stealfs is not loaded on this kernel", frames=None):
    """stealfs's own counters over a measurement: the probe on it, with its
    frame evidence ("steals" when any page was stolen); or, probe None, a
    move of a whole ext4 file into it ("steals" when most pages were), with
    that move's frames (kt-bench frames) when measured."""
    if not counters or "before" not in counters or "after" not in counters:
        return cannot_tell(missing)
    before, after = counters["before"], counters["after"]
    delta = {k: after[k] - before[k] for k in after if k in before}
    refused = sum(v for k, v in delta.items() if k.startswith("refused_"))
    stolen = delta.get("stolen_anon", 0) + delta.get("stolen_pagecache", 0)
    if probe is not None:
        frames = [from_probe(probe, "stealfs", k)["raw"] for k in ("pagecache_move", "gift_move")]
    else:
        frames = [frames] if frames else []
    return {
        "verdict": steal_verdict(delta, probe is None),
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


def power_cut_verdict(fs, cut, outcome):
    """(verdict, reason) of one power-cut row from what the name held after
    the cut (old, new, empty, missing, mixed) and how the power was cut:
    "cannot tell" when the cut was not one instant, else what one cut point
    shows (POWER_CUT_WORDS)."""
    if cut not in ATOMIC_CUTS:
        return "cannot tell", LIVE_COPY
    if fs == "btrfs" and cut.startswith("shutdown"):
        return "cannot tell", BTRFS_LOGFLUSH
    return POWER_CUT_WORDS[outcome], None


def power_cut(records):
    """Per file system and case: what one cut point shows, from what the
    name held after it, with kt-powercut's record (outcome, size, cut) as
    raw."""
    out = {}
    for fs in POWER_CUT_FS:
        rec = records.get(fs)
        out[fs] = {}
        for case in POWER_CUT_CASES:
            if rec is None:
                out[fs][case] = cannot_tell("no power cut measured on this kernel: "
                                            "kt-powercut.sh could not make or mount %s" % fs)
                continue
            got = rec["cases"][case]
            verdict, reason = power_cut_verdict(fs, rec["cut"], got["outcome"])
            out[fs][case] = {"verdict": verdict, "reason": reason,
                             "raw": {"cut": rec["cut"], "bytes": rec["bytes"],
                                     "size": got["size"], "outcome": got["outcome"]}}
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
            "file_to_pipe": from_probe(tmpfs, "tmpfs", "splice_in", referenced=True),
            "pipe_to_file": {fs: {q: from_probe(probes.get(fs), fs, k)
                                  for q, k in PIPE_TO_FILE.items()} for fs in FILE_SYSTEMS},
            "vmsplice": from_probe(tmpfs, "tmpfs", "vmsplice_anon", referenced=True),
            "vmsplice_gift": gift_answer(tmpfs),
            "tee": from_probe(tmpfs, "tmpfs", "tee", referenced=True),
            "stealfs": stealfs_answer(first["counters"].get("stealfs"), probes.get("stealfs")),
            "ext4_to_stealfs": stealfs_answer(first["counters"].get("ext4-move"), None,
                                              "no ext4 file was moved into stealfs on this kernel",
                                              first["frames"].get("ext4-move")),
            # the large folio rows (issue 37)
            "ext4_partial_to_stealfs": stealfs_answer(
                first["counters"].get("ext4-partial"), None,
                "no ext4 file was moved into stealfs from an offset on this kernel",
                first["frames"].get("ext4-partial")),
            "tmpfs_huge_to_stealfs": stealfs_answer(
                first["counters"].get("tmpfs-huge"), None,
                "no tmpfs huge=always file was moved into stealfs on this kernel",
                first["frames"].get("tmpfs-huge")),
        },
        "accounting": accounting(first["acct"], first["acct-foreign"]),
        "power_cut": power_cut(first["powercut"]),
        "bench": bench(samples),
        "probes": probes,
    }


def release_key(k):
    """Kernels oldest first by release (5.10.223 < 6.1.158 < 6.12.118 <
    6.18.44 < 7.2.13); a kernel built from the same release with other
    options (debug) after the distribution's own."""
    rel = k["release"] or ""
    nums = []
    for part in rel.replace("-", ".").replace("+", ".").split(".")[:3]:
        if not part.isdigit():
            break
        nums.append(int(part))
    return (nums or [9999], k["name"] == "debug", k["name"])


# The large folio rows (issue 37): moves into stealfs with -M whose source
# folios are partly covered, or large and swap-backed.
LARGE_FOLIO_ROWS = (
    ("ext4_partial_to_stealfs",
     "clean ext4 file from 12 KiB → stealfs, -M (folios partly covered): most pages stolen"),
    ("tmpfs_huge_to_stealfs", "tmpfs huge=always file → stealfs, -M: most pages stolen"),
)
STEAL_MOVES = ("ext4_to_stealfs",) + tuple(qid for qid, _ in LARGE_FOLIO_ROWS)


def answers(k):
    """(id, label, answer) for every behaviour question of kernel entry k,
    in the table's order."""
    q = k["questions"]
    out = [("file_to_pipe", "file → pipe: pipe holds the page-cache page", q["file_to_pipe"])]
    for fs in FILE_SYSTEMS:
        # The probe's source file is a scratch file in the directory it
        # probes: on stealfs, stealfs's own fresh (dirty) pages.
        cache = "its own dirty page cache" if fs == "stealfs" else "page cache"
        for key, label in (("page_cache_without_move", cache),
                           ("page_cache_with_move", cache + ", -M"),
                           ("gift_with_move", "gifted pages, -M"),
                           ("write_pages_with_move", "write(2) pages, -M")):
            out.append(("pipe_to_file.%s.%s" % (fs, key), "pipe → %s: %s" % (fs, label),
                        q["pipe_to_file"][fs][key]))
    out += [("vmsplice", "vmsplice: pipe references user pages", q["vmsplice"]),
            ("vmsplice_gift", "vmsplice SPLICE_F_GIFT, read back", q["vmsplice_gift"]),
            ("tee", "tee(2): second pipe references the first's pages", q["tee"]),
            ("stealfs", "stealfs counters over the probe", q["stealfs"]),
            ("ext4_to_stealfs", "clean ext4 file → stealfs, -M: most pages stolen",
             q["ext4_to_stealfs"])]
    # the large folio rows (issue 37); reports from before have none
    out += [(qid, label, q[qid]) for qid, label in LARGE_FOLIO_ROWS if qid in q]
    for a in k["accounting"]:
        out.append(("accounting." + a["scenario"], "acct vs unmount: " + a["scenario"], a))
    return out


def power_answers(k):
    """(id, label, answer) for every power-cut row of kernel entry k, in the
    table's order (none in reports from before the power-cut rows)."""
    if "power_cut" not in k:
        return []
    return [("power_cut.%s.%s" % (fs, case), "power cut, %s: %s" % (fs, label),
             k["power_cut"][fs][case])
            for fs in POWER_CUT_FS for case, label in POWER_CUT_CASES.items()]


def all_answers(k):
    return answers(k) + power_answers(k)


def compared_as(qid, a):
    """What an answer is compared under: its question, and for a power cut
    also how the power was cut -- a copy of the device and the shutdown
    ioctl are different experiments, whose verdicts are not a change."""
    if qid.startswith("power_cut.") and a.get("raw"):
        return qid + " / " + a["raw"]["cut"]
    return qid


def changes(kernels):
    """{(kernel name, question id): name of the kernel before} for every
    answer whose verdict differs from the one of the nearest kernel before
    it (in the given order) that answered the question the same way; "cannot
    tell" is no answer, neither a change nor a base for one."""
    last, out = {}, {}
    for k in kernels:
        for qid, _, a in all_answers(k):
            if a["verdict"] == "cannot tell":
                continue
            key = compared_as(qid, a)
            before = last.get(key)
            if before is not None and before[1] != a["verdict"]:
                out[(k["name"], qid)] = before[0]
            last[key] = (k["name"], a["verdict"])
    return out


def mark_changes(kernels):
    """Set changed_since on every answer: the kernel before whose verdict it
    differs from, or None."""
    ch = changes(kernels)
    for k in kernels:
        for qid, _, a in all_answers(k):
            a["changed_since"] = ch.get((k["name"], qid))


def assemble(out, paths):
    kernels = {}
    for p in paths:
        base = os.path.basename(p)[:-len(".rec")]
        name, _, boot = base.rpartition(".")
        kernels.setdefault(name, {})[int(boot)] = parse_records(p)
    entries = sorted((kernel_entry(k, kernels[k]) for k in kernels), key=release_key)
    mark_changes(entries)
    doc = {
        "schema_version": SCHEMA_VERSION,
        "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "host": platform.node(),
        "kernels": entries,
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

    def steal(a):
        r = a["raw"]
        why = ", ".join("%d %s" % (r["after"][c] - r["before"][c], c[len("refused_"):])
                        for c in sorted(r["after"]) if c.startswith("refused_") and c in r["before"]
                        and r["after"][c] != r["before"][c])
        text = "%s: stolen %d anon + %d page cache, %d copied, %d refused (%s)" % (
            a["verdict"], a["stolen_anon"], a["stolen_pagecache"], a["copied"], a["refused"],
            why or "none")
        f = r["frames"][0] if len(r["frames"]) == 1 and "frames_same" in r["frames"][0] else None
        if f and r["frames"][0].get("pages") is None:
            text += "; %d/%d frames the source's" % (f["frames_same"], f["frames_checked"])
            if f["byte_after_write"] != "-":
                text += ", '%s' after write" % f["byte_after_write"]
        return text

    def acct(a):
        unmount = (a["unmount"] or "").rpartition(" returned ")[2].split(" (")[0]
        last = (a["last_record"] or "").partition("last record: ")[2].split(" (")[0]
        return "%s: umount %s, accounting %s, last %s" % (
            a["verdict"], unmount or "?",
            {True: "stopped", False: "went on", None: "?"}[a["accounting_stopped"]], last or "?")

    def cell(qid, a):
        if a["verdict"] == "cannot tell":
            return footnote(a["reason"])
        text = steal(a) if qid in ("stealfs",) + STEAL_MOVES \
            else acct(a) if qid.startswith("accounting.") \
            else short(a)
        if a.get("changed_since"):
            text = "**%s** ⚑ changed since %s" % (text, a["changed_since"])
        return text

    per_kernel = [answers(k) for k in ks]
    for i, (qid, label, _) in enumerate(per_kernel[0]):
        cells = [cell(qid, pk[i][2]) for pk in per_kernel]
        if any(pk[i][2].get("changed_since") for pk in per_kernel):
            label += " ⚑"
        row(label, cells)
    # Reports from before the power-cut rows have none.
    for fs in POWER_CUT_FS if any("power_cut" in k for k in ks) else ():
        for case, label in POWER_CUT_CASES.items():
            cells, changed = [], False
            for k in ks:
                a = k.get("power_cut", {}).get(fs, {}).get(case)
                if a is None or a["verdict"] == "cannot tell":
                    cells.append(footnote(a["reason"] if a else "not measured by this run"))
                    continue
                text = "%s (%d bytes; %s)" % (a["verdict"], a["raw"]["size"], a["raw"]["cut"])
                if a.get("changed_since"):
                    text = "**%s** ⚑ changed since %s" % (text, a["changed_since"])
                    changed = True
                cells.append(text)
            row("power cut, %s: %s%s" % (fs, label, " ⚑" if changed else ""), cells)
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
      "to a's with min–max over %s; a spread that crosses 1.0 is no difference. "
      "Kernels oldest first by release; ⚑: the verdict differs from the one of the nearest "
      "kernel to its left that answered (changed_since in the JSON).\n"
      % ", ".join("%s: %d runs, %d boots" % (k["name"], r["runs"], r["boots"])
                  for k in ks for r in k["bench"][:1]))
    for i, reason in enumerate(REASONS):
        w("\n[%d] %s\n" % (i + 1, reason))


# The grid's colour for each verdict (stealfs's steals/copies are its moved
# and copied; accounting's are whether the kernel kept Linux's or BSD's
# promise).
COLOURS = (("referenced", 0x4C72B0), ("shared", 0x2A3F6B), ("copied", 0xDD8452), ("moved", 0x55A868),
           ("refused", 0x8172B3), ("matches linux", 0x64B5CD), ("matches bsd", 0xC9A227),
           ("differs", 0xC44E52), ("new", 0x9BD08A), ("old", 0x8FBFD9), ("empty", 0xB2182B),
           ("missing", 0x6E6E6E), ("mixed", 0xE377C2), ("cannot tell", 0xD0D0D0))


def grid_word(verdict):
    """The word of a verdict in the grid and its legend: stealfs's steals
    and copies are moved and copied, a power cut's row the outcome it saw."""
    v = {"steals": "moved", "copies": "copied", REFERENCED: "referenced"}.get(verdict, verdict)
    v = next((o for o, words in POWER_CUT_WORDS.items() if words == v), v)
    return "differs" if v.startswith("differs from") else v


def colour(verdict):
    v = grid_word(verdict)
    return next(c for name, c in COLOURS if name == v)


def gp_text(text):
    """text as a gnuplot double-quoted string (newlines kept)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def plot(path, png):
    """The picture: a grid (one row per question, one column per kernel,
    each cell coloured by its verdict, a cell whose verdict changed from the
    kernel to its left outlined) over one throughput panel per kernel, each
    on its own scale."""
    doc = json.load(open(path, encoding="utf-8"))
    ks = doc["kernels"]
    rows = all_answers(ks[0])
    nq, nk = len(rows), len(ks)
    benched = [k for k in ks if k["bench"]]
    width = 520 + 150 * nk
    grid_h = 130 + 22 * nq
    bench_h = 360 if benched else 0
    with tempfile.TemporaryDirectory() as tmp:
        cells = os.path.join(tmp, "cells.dat")
        with open(cells, "w") as f:
            for x, k in enumerate(ks):
                for y, (_, _, a) in enumerate(all_answers(k)):
                    v = a["verdict"]
                    word = {"matches linux": "Linux", "matches bsd": "BSD",
                            "cannot tell": "?"}.get(v, grid_word(v).split(" ")[0])
                    f.write('%d %d %d %d "%s"\n' % (x, nq - 1 - y, colour(v),
                                                    1 if a.get("changed_since") else 0, word))
        g = ["set terminal pngcairo size %d,%d font ',9'" % (width, grid_h + bench_h),
             "set output %s" % gp_text(png), "set termoption noenhanced", "set multiplot"]
        # the grid, at the top
        frac = grid_h / (grid_h + bench_h)
        g += ["set origin 0,%f" % (1 - frac), "set size 1,%f" % frac,
              "set lmargin at screen %f" % (480 / width), "set rmargin at screen 0.99",
              "set tmargin 6", "set bmargin 5",
              "unset title",
              "set label 1 'kernel-truth: what each kernel does (outlined: changed from the "
              "kernel to its left)' at screen 0.5,screen 0.99 center front",
              "set xrange [-0.5:%f]" % (nk - 0.5), "set yrange [-0.5:%f]" % (nq - 0.5),
              "set x2tics (%s)" % ", ".join("%s %d" % (gp_text("%s\n%s" % (k["name"], k["release"])), i)
                                            for i, k in enumerate(ks)),
              "unset xtics", "set ytics (%s)" % ", ".join(
                  "%s %d" % (gp_text(label), nq - 1 - i) for i, (_, label, _) in enumerate(rows)),
              "set ytics nomirror scale 0", "set x2tics scale 0", "unset grid",
              "set key outside bottom center horizontal maxcols 7 samplen 1",
              "set style fill solid 1.0 border lc rgb 'white'"]
        legend = ", ".join("NaN with boxes lc rgb '#%06X' title %s" % (c, gp_text(n))
                           for n, c in COLOURS)
        g.append("plot %s using 1:2:(0.5):(0.5):3 with boxxyerror lc rgb variable notitle, "
                 "'' using 1:($4 > 0 ? $2 : NaN):(0.47):(0.44) with boxxyerror fs empty border "
                 "lc rgb 'black' lw 3 notitle, "
                 "'' using 1:2:5 with labels font ',8' notitle, %s" % (gp_text(cells), legend))
        # one throughput panel per kernel, on its own scale
        for i, k in enumerate(benched):
            dat = os.path.join(tmp, "bench%d.dat" % i)
            with open(dat, "w") as f:
                n = 0
                for r in k["bench"]:
                    for side in ("a", "b"):
                        m = r[side + "_mib_s"]
                        f.write('%d "%s→%s %s" %f %f %f %d\n' % (
                            n, r["case"], r["target"], r[side], m["median"], m["min"], m["max"],
                            0 if side == "a" else 1))
                        n += 1
                    n += 0.5
            w = 1.0 / len(benched)
            g += ["set origin %f,0" % (i * w), "set size %f,%f" % (w, 1 - frac),
                  "set lmargin 8", "set rmargin 2", "set tmargin 3", "set bmargin 9",
                  "unset x2tics", "unset ytics", "set ytics nomirror", "set xtics rotate by 60 right font ',7'",
                  "set autoscale", "set yrange [0:*]", "unset key", "unset label 1",
                  "set title %s" % gp_text("%s: MiB/s (median, min-max)" % k["name"]),
                  "set style fill solid 0.6 border lc rgb 'black'", "set boxwidth 0.8",
                  "plot %s using 1:3:($6 > 0 ? 0xA6BDDB : 0x2B5C8A):xtic(2) with boxes lc rgb variable, "
                  "'' using 1:3:4:5 with yerrorbars pt 7 ps 0.4 lc rgb 'black'" % gp_text(dat)]
        g.append("unset multiplot")
        subprocess.run(["gnuplot"], input="\n".join(g) + "\n", text=True, check=True)


def check(path):
    """Every verdict agrees with its raw measurement; prints what does not."""
    doc = json.load(open(path, encoding="utf-8"))
    bad = []

    def page(where, a, referenced=False):
        v, raw = a["verdict"], a["raw"]
        # a pipe's references read back: never "shared" (no shared mapping
        # nor pin was measured), and a plain copy is never "referenced"
        if v == ("shared" if referenced else REFERENCED):
            bad.append("%s: %s is not what a %s measures" % (
                where, v, "pipe's reference" if referenced else "destination file"))
            return
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
            REFERENCED: byte == "B",
            "copied": (frames and raw["frames_same"] == 0 and byte != "B")
            or (not frames and (byte == "A" or resident == raw.get("pages") or stealfs == 0)),
            "moved": (frames and raw["frames_same"] > 0 and byte != "B")
            or (not frames and ((resident is not None and resident < raw.get("pages"))
                                or (stealfs or 0) > 0)),
            "refused": raw.get("error") is not None,
        }.get(v, False)
        if not ok:
            bad.append("%s: %s disagrees with %s" % (where, v, json.dumps(raw)))

    ch = changes(doc["kernels"])
    if [k["name"] for k in sorted(doc["kernels"], key=release_key)] != \
            [k["name"] for k in doc["kernels"]]:
        bad.append("the kernels are not in release order")
    for k in doc["kernels"]:
        q = k["questions"]
        for name in ("file_to_pipe", "vmsplice", "vmsplice_gift", "tee"):
            page("%s %s" % (k["name"], name), q[name], referenced=True)
        if q["vmsplice_gift"]["verdict"] != "cannot tell":
            bad.append("%s vmsplice_gift: %s, but read(2) never steals a gift: cannot tell"
                       % (k["name"], q["vmsplice_gift"]["verdict"]))
        for fs, qs in q["pipe_to_file"].items():
            for name, a in qs.items():
                page("%s pipe_to_file %s %s" % (k["name"], fs, name), a)
        for s, majority in [(q["stealfs"], False)] + [(q[m], True) for m in STEAL_MOVES if m in q]:
            if s["verdict"] == "cannot tell":
                continue
            r = s["raw"]
            d = {c: r["after"][c] - r["before"][c] for c in r["after"]}
            want = steal_verdict(d, majority)
            if (want != s["verdict"] or d["stolen_anon"] != s["stolen_anon"]
                    or d["copied"] != s["copied"] or d["refused_gift"] != s["refused_gift"]):
                bad.append("%s stealfs: counters disagree with the verdict" % k["name"])
            # the move's frames, when read, must not contradict the counters:
            # stolen pages keep their frames, copied ones do not
            for f in (r["frames"] if majority else []):
                same, checked = f.get("frames_same"), f.get("frames_checked")
                if not checked:
                    continue
                if (s["verdict"] == "steals" and (same == 0 or f.get("byte_after_write") == "B")) \
                        or (s["verdict"] == "copies" and 2 * same > checked):
                    bad.append("%s ext4_to_stealfs: %s with %d/%d frames the source's" % (
                        k["name"], s["verdict"], same, checked))
        for a in k["accounting"]:
            if a["verdict"] == "cannot tell":
                continue
            held = [c for c in a["raw"]["checks"] if not c["skipped"]]
            want = ("matches " if all(c["ok"] for c in held) else "differs from ") + \
                a["raw"]["expect"]
            if want != a["verdict"]:
                bad.append("%s accounting %s: %s, checks say %s" % (k["name"], a["scenario"],
                                                                     a["verdict"], want))
        for qid, _, a in all_answers(k):
            want = ch.get((k["name"], qid))
            if a.get("changed_since", "missing") != want:
                bad.append("%s %s: changed_since %s, the verdicts say %s" % (
                    k["name"], qid, a.get("changed_since", "missing"), want))
        for fs, per in k.get("power_cut", {}).items():
            for case, a in per.items():
                raw = a["raw"]
                if raw is None:
                    if a["verdict"] != "cannot tell" or not a["reason"]:
                        bad.append("%s power cut %s %s: %s without a measurement"
                                   % (k["name"], fs, case, a["verdict"]))
                    continue
                size, full, outcome = raw["size"], raw["bytes"], raw["outcome"]
                fits = {"missing": size == -1, "empty": size == 0,
                        "old": size == full, "new": size == full, "mixed": size > 0}
                if not fits.get(outcome, False):
                    bad.append("%s power cut %s %s: %s with size %d" % (
                        k["name"], fs, case, outcome, size))
                # the words follow from the outcome and the kind of cut: one
                # instant's cut shows what can come back, any other nothing
                want = power_cut_verdict(fs, raw["cut"], outcome)
                if (a["verdict"], a["reason"]) != want:
                    bad.append("%s power cut %s %s (%s, %s): %s, the cut says %s" % (
                        k["name"], fs, case, outcome, raw["cut"], a["verdict"], want[0]))
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
