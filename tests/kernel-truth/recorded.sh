# SPDX-License-Identifier: GPL-2.0-or-later
# make kernel-truth's reports from recorded measurements (a real run's
# records, tests/kernel-truth/recorded/): the JSON follows the schema, every
# verdict agrees with the raw measurement beside it, the Markdown has a
# column per kernel and the picture is a PNG; and the checks fail when a
# verdict is changed without its measurement.
. "$top_srcdir/tests/lib.sh"

python3 -c 'import jsonschema' 2>/dev/null || skip "python3-jsonschema is not installed"
REPORT="$top_srcdir/contrib/kernel-truth/kt-report.py"
SCHEMA="$top_srcdir/contrib/kernel-truth/kernel-truth.schema.json"

ok "assemble the recorded run" python3 "$REPORT" assemble kt.json "$top_srcdir"/tests/kernel-truth/recorded/*.rec
ok "the JSON follows the schema" python3 "$REPORT" validate kt.json "$SCHEMA"
ok "every verdict agrees with its raw measurement" python3 "$REPORT" check kt.json
check_eq "one object per kernel, oldest release first: 5.10, 6.1, 6.12, host, 7.2" "5.10 6.1 6.12 host 7.2" \
	"$(python3 -c 'import json,sys; print(" ".join(k["name"] for k in json.load(open(sys.argv[1]))["kernels"]))' kt.json)"
check_eq "the bench pairs at least 7 runs over 2 boots in each VM" "" \
	"$(python3 -c 'import json,sys
for k in json.load(open(sys.argv[1]))["kernels"]:
    for b in k["bench"]:
        if k["where"] == "qemu" and (b["runs"] < 14 or b["boots"] != 2): print(k["name"], b["case"], b["target"])' kt.json)"

python3 "$REPORT" markdown kt.json > kt.md
ok "the table has a column per kernel" grep -q '^| question | 5.10 (.*) | 6.1 (.*) | 6.12 (.*) | host (.*) | 7.2 (.*) |$' kt.md
check_eq "changed_since follows from the verdicts of the kernels before" "" \
	"$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1])); last = {}
def walk(k):
    q = k["questions"]
    yield "f2p", q["file_to_pipe"]
    for fs, qs in sorted(q["pipe_to_file"].items()):
        for n, a in sorted(qs.items()): yield fs + n, a
    for n in ("vmsplice", "vmsplice_gift", "tee", "stealfs"): yield n, q[n]
    for a in k["accounting"]: yield a["scenario"], a
    # a power cut compares with the same kind of cut only
    for fs, cs in sorted(k.get("power_cut", {}).items()):
        for c, a in sorted(cs.items()): yield "pc %s %s %s" % (fs, c, (a["raw"] or {}).get("cut")), a
for k in d["kernels"]:
    for n, a in walk(k):
        if a["verdict"] == "cannot tell":
            if a["changed_since"] is not None: print(k["name"], n, "cannot tell marked changed")
            continue
        want = last[n][0] if n in last and last[n][1] != a["verdict"] else None
        if a["changed_since"] != want: print(k["name"], n, a["changed_since"], want)
        last[n] = (k["name"], a["verdict"])' kt.json)"
changed=$(grep -c '"changed_since": "' kt.json)
check_eq "the table marks as many cells changed as the JSON" "$changed" "$(grep -o '⚑ changed since' kt.md | wc -l)"
ok "the table answers tee(2)" grep -q '^| tee(2): second pipe references the first.s pages | ' kt.md
ok "vmsplice reads 'referenced, not copied', never 'shared'" \
	grep -q '^| vmsplice: pipe references user pages | referenced, not copied (.B. after write) |' kt.md
ok "the stealfs page-cache rows say the source is stealfs's own dirty pages" \
	grep -q '^| pipe → stealfs: its own dirty page cache, -M | ' kt.md
check_eq "no cell of the table says shared for a pipe's references, or old/new/empty bare" "" \
	"$(grep -E '^\| (vmsplice|tee|file → pipe|power cut)' kt.md | grep -E '\| (shared|new|old|empty) \(')"
ok "the clean ext4 file's move into stealfs shows its frames" \
	grep -Eq '^\| clean ext4 file → stealfs, -M: most pages stolen( ⚑)? \| [^|]* \| steals: [^|]*; [0-9]+/[0-9]+ frames the source.s, .A. after write \|' kt.md
ok "the table states the spread of each ratio" grep -Eq '^\| bench pipe → stealfs: .*×[0-9.]+ \([0-9.]+–[0-9.]+\)' kt.md
ok "the table has the power-cut rows, spmove's on XFS" \
	grep -q '^| power cut, xfs: spmove SRC over an existing DST | .* | new at this cut (1048576 bytes; [^|]* | [^|]* |$' kt.md
ok "an XFS rename without fsync reads 'can come back empty'" \
	grep -q '^| power cut, xfs: write + rename over a name, no fsync | can come back empty (0 bytes; ' kt.md
ok "the picture is a PNG" sh -c 'python3 "$1" plot kt.json kt.png && head -c 8 kt.png | od -An -c | grep -q "P   N   G"' sh "$REPORT"

# caught DESCRIPTION CHANGE [SCHEMA]: kt.json with CHANGE (Python, on d and
# k = d["kernels"]; words(a): a power-cut answer's words for its outcome) fails kt-report.py check, or validate against SCHEMA.
caught() {
	python3 -c 'import json,sys
WORDS = {"empty": "can come back empty", "mixed": "can come back mixed", "missing": "missing at this cut",
         "old": "old at this cut", "new": "new at this cut"}
def words(a): return WORDS[a["raw"]["outcome"]]  # the words one cut point would have
d = json.load(open("kt.json")); k = d["kernels"]; exec(sys.argv[1])
json.dump(d, open("bad.json", "w"))' "$2" || { ok "$1: the change applies" false; return; }
	if [ $# = 3 ]; then
		ok "$1" sh -c '! python3 "$1" validate bad.json "$2" > /dev/null' sh "$REPORT" "$3"
	else
		ok "$1" sh -c '! python3 "$1" check bad.json > /dev/null' sh "$REPORT"
	fi
}
caught "a move that the frames contradict is caught" \
	'q = k[1]["questions"]["pipe_to_file"]["tmpfs"]["page_cache_with_move"]; assert q["raw"]["frames_same"] == 0; q["verdict"] = "moved"'
caught "a copy that the write-after-splice contradicts is caught" \
	'q = k[1]["questions"]["tee"]; assert q["raw"]["byte_after_write"] == "B"; q["verdict"] = "copied"'
caught "vmsplice's references called shared are caught" \
	'q = k[1]["questions"]["vmsplice"]; assert q["verdict"] == "referenced, not copied"; q["verdict"] = "shared"'
caught "vmsplice's references called shared break the schema" \
	'q = k[1]["questions"]["vmsplice"]; q["verdict"] = "shared"' "$SCHEMA"
caught "a gift read back with read(2) given a verdict is caught" \
	'q = k[1]["questions"]["vmsplice_gift"]; assert q["verdict"] == "cannot tell" and q["raw"]; q["verdict"] = "referenced, not copied"; q["reason"] = None'
caught "a gift read back with read(2) given a verdict breaks the schema" \
	'q = k[1]["questions"]["vmsplice_gift"]; q["verdict"] = "referenced, not copied"; q["reason"] = None' "$SCHEMA"
caught "'no difference' with a spread that does not cross 1.0 is caught" \
	'b = [b for b in k[1]["bench"] if b["verdict"] != "no difference"][0]; b["verdict"] = "no difference"'
caught "a ratio that does not follow from the runs is caught" \
	'b = k[1]["bench"][0]; b["raw"][0]["b_ns"] *= 10'
caught "an accounting verdict the checks contradict is caught" \
	'a = k[1]["accounting"][0]; a["raw"]["checks"][0]["ok"] = False'
caught "stealfs figures the counters contradict are caught" \
	's = k[1]["questions"]["stealfs"]; s["stolen_anon"] += 1'
caught "a clean ext4 file's move called steals with no frame of the source's is caught" \
	'a = k[1]["questions"]["ext4_to_stealfs"]; f = a["raw"]["frames"][0]; assert a["verdict"] == "steals" and f["frames_same"] > 0; f["frames_same"] = 0'
caught "a changed_since the verdicts contradict is caught" \
	'a = k[2]["questions"]["tee"]; assert a["changed_since"] is None; a["changed_since"] = k[1]["name"]'
caught "a power-cut changed_since the verdicts contradict is caught" \
	'a = k[2]["power_cut"]["xfs"]["rename"]; assert a["changed_since"] is None; a["changed_since"] = k[1]["name"]'
caught "a power-cut change across two kinds of cut is caught" \
	'b = k[1]["power_cut"]["xfs"]["rename"]; a = k[2]["power_cut"]["xfs"]["rename"]; assert b["verdict"] == "can come back empty" and b["raw"]["cut"].startswith("shutdown"); a["raw"].update(cut="dm device suspended without freeze, copied", outcome="new", size=a["raw"]["bytes"]); a["verdict"] = "new at this cut"; a["changed_since"] = k[1]["name"]'
caught "an answer without changed_since breaks the schema" \
	'del k[1]["questions"]["vmsplice"]["changed_since"]' "$SCHEMA"
caught "kernels out of release order are caught" \
	'k.reverse()'
caught "a power-cut outcome its size contradicts is caught" \
	'a = next(x for x in k if x["name"] == "host")["power_cut"]["xfs"]["rename"]; assert a["raw"]["size"] == 0; a["raw"]["outcome"] = "new"; a["verdict"] = "new at this cut"'
caught "a power-cut verdict its outcome contradicts is caught" \
	'a = k[1]["power_cut"]["xfs"]["trunc"]; assert a["raw"]["outcome"] == "new"; a["verdict"] = "can come back empty"'
caught "one cut point worded as a promise is caught" \
	'a = k[1]["power_cut"]["ext4"]["rename"]; assert a["raw"]["outcome"] == "new"; a["verdict"] = "never empty"' "$SCHEMA"
caught "a verdict from a copy of a live device is caught" \
	'a = next(x for x in k if x["name"] == "host")["power_cut"]["btrfs"]["rename"]; assert a["verdict"] == "cannot tell"; a["verdict"] = words(a); a["reason"] = None'
caught "a verdict from a copy of a live device breaks the schema" \
	'a = next(x for x in k if x["name"] == "host")["power_cut"]["btrfs"]["rename"]; a["verdict"] = words(a); a["reason"] = None' "$SCHEMA"
caught "a btrfs verdict from the LOGFLUSH shutdown (a sync) is caught" \
	'a = k[1]["power_cut"]["btrfs"]["trunc"]; a["raw"]["cut"] = "shutdown ioctl, journal written"; a["verdict"] = words(a); a["reason"] = None'
caught "a verdict without its measurement breaks the schema" \
	'q = k[1]["questions"]["vmsplice"]; q["raw"] = None' "$SCHEMA"
caught "'cannot tell' without a reason breaks the schema" \
	'q = k[0]["questions"]["pipe_to_file"]["tmpfs"]["write_pages_with_move"]; q["verdict"] = "cannot tell"; q["reason"] = None' "$SCHEMA"

# The published report (contrib/kernel-truth/results/) is a real one: it
# follows the schema, its verdicts agree with its measurements, and its
# table is the Markdown recorded beside it and the one in
# doc/kernel-truth.md.
# (results/DATE/kernel-truth.json, .md and .png; earlier: results/DATE.json)
published=0
for f in "$top_srcdir"/contrib/kernel-truth/results/*.json \
	 "$top_srcdir"/contrib/kernel-truth/results/*/kernel-truth.json; do
	[ -f "$f" ] || continue
	published=$((published + 1))
	n=${f#"$top_srcdir"/contrib/kernel-truth/results/}
	ok "$n follows the schema" python3 "$REPORT" validate "$f" "$SCHEMA"
	ok "$n: every verdict agrees with its raw measurement" python3 "$REPORT" check "$f"
	python3 "$REPORT" markdown "$f" | sed 1d > published.md
	ok "$n: its table is ${n%.json}.md's" sh -c 'sed 1d "$1" | grep -vx "" | while IFS= read -r line; do grep -qxF -- "$line" "$2" || exit 1; done' sh published.md "${f%.json}.md"
	ok "$n: its table is in doc/kernel-truth.md" sh -c 'sed 1d "$1" | grep -vx "" | while IFS= read -r line; do grep -qxF -- "$line" "$2" || exit 1; done' sh published.md "$top_srcdir/doc/kernel-truth.md"
done
ok "a published report is checked" test "$published" -gt 0
done_testing
