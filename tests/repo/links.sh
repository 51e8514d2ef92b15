#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The links between the README, doc/*.md, the manual pages and NEWS: every
# relative Markdown link of README and doc/*.md names a file of the tree (and
# a heading of it, after '#'); every path under a top-level folder written in
# backquotes there is a file of the source or build tree; every page of ours
# named as NAME(N) in README, doc/ or NEWS, or in a manual page's SEE ALSO, is
# in man/; every file of doc/ is linked from the README.  Then the same
# checks on a small tree with a fault of each kind, which must be caught.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"
command -v python3 >/dev/null || skip "no python3"

cat > links.py <<'PY'
import glob, os, re, sys
# links.py SRCDIR BUILDDIR: prints one line per broken link; exit 1 if any.
src, build = sys.argv[1], sys.argv[2]
bad = []
def exists(rel):
    return any(os.path.exists(os.path.join(d, rel)) for d in (src, build))
def slugs(path):
    out = set()
    for line in open(path, encoding="utf-8"):
        m = re.match(r"#+\s+(.*?)\s*#*$", line)
        if m:
            s = re.sub(r"[^\w\- ]", "", m.group(1).lower())
            out.add(s.replace(" ", "-"))
    return out
OURS = r"(?:spcat|sptee|spmove|acctpin|libsplice|sp_[a-z_]+)"
def manpage(ref, name, sec, where):
    if not os.path.exists(os.path.join(src, "man", "%s.%s" % (name, sec))):
        bad.append("%s: %s: no man/%s.%s" % (where, ref, name, sec))
docs = ["README"] + sorted(os.path.relpath(p, src) for p in glob.glob(os.path.join(src, "doc", "*.md")))
linked_from_readme = set()
for doc in docs:
    text = open(os.path.join(src, doc), encoding="utf-8").read()
    here = os.path.dirname(doc)
    # code blocks (indented four spaces) hold commands and output, not links
    prose = "\n".join(l for l in text.split("\n") if not l.startswith("    "))
    for n, line in enumerate(prose.split("\n"), 1):
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, frag = target.partition("#")
            rel = os.path.normpath(os.path.join(here, path)) if path else doc
            if not exists(rel):
                bad.append("%s: link to %s: no such file" % (doc, target))
                continue
            if frag and rel.endswith(".md") and frag not in slugs(os.path.join(src, rel)):
                bad.append("%s: link to %s: no such heading" % (doc, target))
            if doc == "README":
                linked_from_readme.add(rel)
        for span in re.findall(r"`([^`\s]+)`", line):
            if re.match(r"(lib|src|tests|contrib|man|doc|include|debian|\.ci)/", span) \
                    and not re.search(r"[*{}<>\[]|NAME|TOOL|VERSION", span) \
                    and not exists(span.rstrip("/")):
                bad.append("%s: `%s`: no such file" % (doc, span))
    for ref, name, sec in re.findall(r"\b((%s)\(([1-8])\))" % OURS, prose):
        manpage(ref, name, sec, doc)
for ref, name, sec in re.findall(r"\b((%s)\(([1-8])\))" % OURS, open(os.path.join(src, "NEWS"), encoding="utf-8").read()):
    manpage(ref, name, sec, "NEWS")
for page in sorted(glob.glob(os.path.join(src, "man", "*.[1-8]"))):
    text = open(page, encoding="utf-8").read()
    m = re.search(r"^\.SH \"?SEE ALSO\"?\s*$(.*?)(?=^\.SH|\Z)", text, re.M | re.S)
    for name, sec in re.findall(r"^\.BR? (%s) \(([1-8])\)" % OURS, m.group(1) if m else "", re.M):
        manpage("%s(%s)" % (name, sec), name.replace("\\-", "-"), sec, "man/" + os.path.basename(page) + " SEE ALSO")
for doc in docs[1:]:
    if doc not in linked_from_readme:
        bad.append("README: no link to %s" % doc)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

ok "README, doc/, the manual pages and NEWS link to what exists" \
	python3 links.py "$top_srcdir" "$top_builddir"
python3 links.py "$top_srcdir" "$top_builddir" | sed 's/^/# /'

# A small tree with one fault of each kind: each must be reported.
mkdir -p t/doc t/man t/lib
printf '# A\n\n## Some heading\n\n[b](b.md) [ok](a.md#some-heading) [bad](a.md#nowhere)\n' > t/doc/a.md
printf '# B\n\n[gone](../lib/gone.c) `lib/missing.c` spmove(1) spwhat(3)\n' > t/doc/b.md
printf '# C, linked from nowhere\n' > t/doc/c.md
printf 'splice-utils\n[a](doc/a.md) [b](doc/b.md)\n' > t/README
printf 'sp_gone(3) went away.\n' > t/NEWS
printf '.TH SPMOVE 1\n.SH SEE ALSO\n.BR cp (1),\n.BR sp_nothing (3)\n' > t/man/spmove.1
python3 links.py t t > faults.txt
check_eq "each fault is reported, nothing else" \
"doc/a.md: link to a.md#nowhere: no such heading
doc/b.md: link to ../lib/gone.c: no such file
doc/b.md: \`lib/missing.c\`: no such file
NEWS: sp_gone(3): no man/sp_gone.3
man/spmove.1 SEE ALSO: sp_nothing(3): no man/sp_nothing.3
README: no link to doc/c.md" "$(cat faults.txt)"
done_testing
