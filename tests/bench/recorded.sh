#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmark figures published in doc/benchmarks.md (the whole tables) and
# in the README (its five-row summary) are the recorded runs'
# (contrib/bench/results/*.json; a row is matched to the run and case that
# have its figures): every row's median and spread for our tool,
# each ratio peer / ours and the ceiling's ratio, recomputed from the JSON;
# and a figure changed in a copy of either is caught.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
command -v python3 >/dev/null || skip "no python3"

# The checker: python3 check.py RESULTS.json... -- DOC... checks every table of DOC
# whose header begins "| case | ours (median, spread) |"; it fails when DOC
# has no such table.  A row is matched to its case by our tool's figures
# (and, when several cases share them, by all of its figures).
cat > check.py <<'PY'
import json, sys
# usage: benchdoc.py RESULTS.json... -- DOC...: every Markdown table in DOC
# whose header starts "| case | ours (median, spread) |" must hold a run's
# figures.
split = sys.argv.index("--")
cases = {}
for path in sys.argv[1:split]:
    for r in json.load(open(path))["results"]:
        cases.setdefault((path, r["case"]), []).append(r)
def ours(rows): return [r for r in rows if r["ours"]][0]
def fmt_ours(r): return "%.3f s (%.3f-%.3f)" % (r["median_s"], r["min_s"], r["max_s"])
def peer(rows, col):
    def pick(pred):
        m = [r for r in rows if not r["ours"] and pred(r["tool"])]
        return m[0] if m else None
    if col == "vs GNU 9.11": return pick(lambda t: t.startswith("GNU ") and " 9.11" in t)
    if col == "vs GNU 9.1": return pick(lambda t: t.startswith("GNU ") and t.endswith(" 9.1"))
    if col == "vs uutils": return pick(lambda t: t.startswith("uutils "))
    if col == "vs pv": return pick(lambda t: t == "pv")
    if col == "vs rsync": return pick(lambda t: t == "rsync")
    if col == "vs rsync --fsync": return pick(lambda t: t == "rsync --fsync")
    raise SystemExit("unknown column %r" % col)
def expected(rows, col):
    o = ours(rows)
    if col == "ours (median, spread)": return fmt_ours(o)
    if col == "ceiling vs GNU 9.11":
        g = peer(rows, "vs GNU 9.11")
        ceil = [r["median_s"] for r in rows if r["tool"].startswith("raw ")]
        return "%.2fx" % (g["median_s"] / min(ceil)) if ceil and g else ""
    p = peer(rows, col)
    return "%.2fx" % (p["median_s"] / o["median_s"]) if p else ""
bad = tables = rows_seen = 0
for doc in sys.argv[split + 1:]:
    header = None
    for n, line in enumerate(open(doc), 1):
        if not line.startswith("|"):
            header = None; continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[:2] == ["case", "ours (median, spread)"]:
            header = cells; tables += 1; continue
        if header is None or set(cells[0]) <= set("-:"): continue
        rows_seen += 1
        match = [c for c, rows in cases.items() if fmt_ours(ours(rows)) == cells[1]]
        # Our figures shared by several cases: the one whose every
        # figure in the row is its own.
        if len(match) > 1:
            match = [c for c in match
                     if all(got == expected(cases[c], col) for col, got in zip(header[2:], cells[2:]))]
        if len(match) != 1:
            print("%s:%d: %r matches %d recorded cases" % (doc, n, cells[1], len(match))); bad += 1; continue
        for col, got in zip(header[2:], cells[2:]):
            want = expected(cases[match[0]], col)
            if got != want:
                print("%s:%d: %s, %s: %r, the run says %r" % (doc, n, cells[0], col, got, want)); bad += 1
print("%d tables, %d rows, %d mismatches" % (tables, rows_seen, bad))
sys.exit(1 if bad or not tables else 0)
PY

results=$(ls "$top_srcdir"/contrib/bench/results/*.json)
ok "doc/benchmarks.md: the whole table is the recorded run's" \
	python3 check.py $results -- "$top_srcdir/doc/benchmarks.md"
ok "README: the summary is the recorded run's" \
	python3 check.py $results -- "$top_srcdir/README"
check_eq "README: the summary has five rows" 5 \
	"$(python3 check.py $results -- "$top_srcdir/README" | sed -n 's/^1 tables, \([0-9]*\) rows.*/\1/p')"

# The check can fail: one ratio, one median changed.
sed '0,/| [0-9.]*x |/s/| \([0-9.]*\)x |/| 9\1x |/' "$top_srcdir/doc/benchmarks.md" > ratio.md
ok "a changed ratio is caught" sh -c '! cmp -s "$1" ratio.md && ! python3 check.py $2 -- ratio.md > /dev/null' \
	- "$top_srcdir/doc/benchmarks.md" "$results"
sed '0,/| 0\.[0-9]* s (/s/| 0\.\([0-9]*\) s (/| 1.\1 s (/' "$top_srcdir/README" > median.md
ok "a changed median is caught" sh -c '! cmp -s "$1" median.md && ! python3 check.py $2 -- median.md > /dev/null' \
	- "$top_srcdir/README" "$results"
done_testing
