#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mutagen: derive kernel mutants mechanically (issue 15, part 2).

    scripts/mutagen.py --out DIR [--sample N] [--function NAME]... [--list]

Takes the functions in TARGETS from Debian's linux-source-6.12 as patched by
kernel-patches/series (the queue is applied to a scratch copy of the files
it touches), finds each function by its signature and brace matching (on a
token stream that skips comments, strings and preprocessor lines) and
applies four operators:

  del-guard    every `return -E...;` and `goto LABEL;` deleted (a braceless
               if/else body becomes the empty statement `;`)
  negate-cond  every if condition of a flag or length check C -> !(C)
  widen-mask   every MASK in `x & ~MASK` -> (MASK | (1u << N)), N the lowest
               bit MASK lacks (MASK evaluated from the kernel's #defines)
  shift-relop  every < <= > >= in a length check shifted by one
               (< -> <=, <= -> <, > -> >=, >= -> >)

A "flag or length check" is an if condition that mentions an identifier
with flag or mask in its name, `& ~`, sizeof, an identifier with len, size,
count or nr in its name, or compares (< <= > >= == !=) with a number or an
upper-case constant. Functions marked flags-only (msm_ioctl_gem_submit)
only take the mutants inside an if whose condition mentions a flag or mask.

Each mutant is DIR/variants/gen-NNNN/ (NNNN its index in the full list,
file order then position): series, one unified diff against the
queue-patched file (named after index, file, function, operator and line;
its first line describes the mutant) and a `variant` file (removes:,
suites: the suite that covers the file, killed-by: the suite name, i.e. any
test of that suite). DIR/mutants.list has one line per mutant written:
name, operator, file:line, function, suite, description (tab-separated).
--sample N keeps N mutants spread evenly over the (filtered) list; --list
only prints the counts. Python 3 standard library only; deterministic.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# file -> (suite, [(function, flags_only)])
TARGETS = [
    ("fs/open.c", "openat2", [("build_open_flags", False),
                              ("do_sys_openat2", False)]),
    ("drivers/w1/w1_netlink.c", "w1", [
        ("w1_reply_len", False), ("w1_reply_make_space", False),
        ("w1_netlink_check_send", False), ("w1_netlink_setup_msg", False),
        ("w1_netlink_queue_cmd", False), ("w1_netlink_queue_status", False),
        ("w1_netlink_send_error", False), ("w1_netlink_send", False),
        ("w1_process_command_master", False),
        ("w1_process_command_slave", False), ("w1_cn_callback", False)]),
    ("drivers/gpu/drm/msm/msm_drv.c", "msm", [
        ("msm_ioctl_gem_new", False), ("msm_ioctl_gem_cpu_prep", False),
        ("msm_ioctl_gem_info", False), ("msm_ioctl_wait_fence", False),
        ("msm_ioctl_gem_madvise", False),
        ("msm_ioctl_submitqueue_new", False)]),
    ("drivers/gpu/drm/msm/msm_gem_submit.c", "msm", [
        ("submit_lookup_objects", False), ("submit_lookup_cmds", False),
        ("msm_ioctl_gem_submit", True)]),
    ("drivers/gpu/drm/msm/msm_submitqueue.c", "msm", [
        ("msm_submitqueue_create", False)]),
]

OPERATORS = ("del-guard", "negate-cond", "widen-mask", "shift-relop")

# ---------------------------------------------------------------- tokens

PUNCT = sorted("""<<= >>= ... -> ++ -- << >> <= >= == != && || += -= *= /= %=
&= |= ^= ## ( ) [ ] { } . & * + - ~ ! / % < > ^ | ? : ; = , #""".split(),
               key=len, reverse=True)
TOKEN_RE = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+|\n)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<number>\.?\d(?:[\w.]|[eEpP][+-])*)
  | (?P<punct>""" + "|".join(re.escape(p) for p in PUNCT) + r""")
  | (?P<other>.)""", re.S | re.X)


class Tok:
    __slots__ = ("kind", "text", "start", "end")

    def __init__(self, kind, text, start, end):
        self.kind, self.text, self.start, self.end = kind, text, start, end

    def __repr__(self):
        return "%s(%r)" % (self.kind, self.text)


def tokenize(src):
    """Code tokens only: no whitespace, comments or preprocessor lines
    (a line whose first token is #, with its backslash continuations)."""
    toks = []
    bol = True          # at the beginning of a line (only blanks so far)
    in_pp = False
    for m in TOKEN_RE.finditer(src):
        kind = m.lastgroup
        text = m.group()
        if kind == "ws":
            if text == "\n":
                if in_pp and not src[:m.start()].endswith("\\"):
                    in_pp = False
                bol = True
            continue
        if kind == "comment":
            continue
        if bol and text == "#":
            in_pp = True
        bol = False
        if in_pp:
            continue
        toks.append(Tok(kind, text, m.start(), m.end()))
    return toks


def match_close(toks, i):
    """Index of the bracket closing toks[i]."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opening, closing = toks[i].text, pairs[toks[i].text]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text == opening:
            depth += 1
        elif toks[j].text == closing:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced %s at offset %d" % (opening, toks[i].start))


def find_functions(toks, name):
    """(open brace index, close brace index) of each definition of name."""
    found = []
    depth = 0
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.text == "{":
            depth += 1
        elif t.text == "}":
            depth -= 1
        elif (depth == 0 and t.kind == "ident" and t.text == name
              and i + 1 < len(toks) and toks[i + 1].text == "("):
            j = match_close(toks, i + 1) + 1
            if j < len(toks) and toks[j].text == "{":
                k = match_close(toks, j)
                found.append((j, k))
                i = k + 1
                continue
        i += 1
    return found


def statement_end(toks, i):
    """Index of the last token of the statement starting at toks[i]."""
    if toks[i].text == "{":
        return match_close(toks, i)
    if toks[i].text == "if":
        j = statement_end(toks, match_close(toks, i + 1) + 1)
        if j + 1 < len(toks) and toks[j + 1].text == "else":
            j = statement_end(toks, j + 2)
        return j
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].text in "([{":
            depth += 1
        elif toks[j].text in ")]}":
            depth -= 1
        elif toks[j].text == ";" and depth == 0:
            return j
    raise ValueError("no end of statement")

# ----------------------------------------------------------- conditions

FLAGISH = re.compile(r"flag|mask", re.I)
LENISH = re.compile(r"(^|_)(len|length|size|count|cnt|nr|num|nr_\w+)(_|$)|"
                    r"len$|size$|count$|^nr", re.I)
CONST = re.compile(r"^[A-Z][A-Z0-9_]*$")
RELOPS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}


def cond_kind(ctoks):
    """'flag', 'length' or None for the tokens of an if condition."""
    texts = [t.text for t in ctoks]
    flag = any(t.kind == "ident" and FLAGISH.search(t.text) for t in ctoks)
    flag = flag or any(a == "&" and b == "~" for a, b in zip(texts, texts[1:]))
    if flag:
        return "flag"
    if "sizeof" in texts:
        return "length"
    if any(t.kind == "ident" and LENISH.search(t.text) for t in ctoks):
        return "length"
    for k, t in enumerate(ctoks):
        if t.text in ("<", "<=", ">", ">=", "==", "!="):
            for n in (ctoks[k - 1] if k else None,
                      ctoks[k + 1] if k + 1 < len(ctoks) else None):
                if n is not None and (n.kind == "number" or
                                      (n.kind == "ident" and CONST.match(n.text))):
                    return "length"
    return None

# ------------------------------------------------------- mask evaluation


class MaskEval:
    """Values of mask macros from the kernel's #defines (arm64)."""

    def __init__(self, pristine, srcfile, text):
        self.pristine = pristine
        self.srcfile = srcfile
        self.text = text
        self.cache = {}

    def define(self, name):
        pat = re.compile(r"^[ \t]*#[ \t]*define[ \t]+" + re.escape(name) +
                         r"[ \t]+((?:[^\n\\]|\\\n)*)", re.M)
        m = pat.search(self.text)
        if m:
            return m.group(1)
        # the arch's headers first (arm64 overrides asm-generic), then
        # the rest of include/ and the source file's folder
        dirs = [os.path.join(self.pristine, "arch/arm64/include"),
                os.path.join(self.pristine, "include"),
                os.path.dirname(os.path.join(self.pristine, self.srcfile))]
        # an enumerator (NAME = VALUE,) when no #define has the name
        enum = re.compile(r"^[ \t]*" + re.escape(name) + r"[ \t]*=[ \t]*([^,}\n]+)", re.M)
        m = enum.search(self.text)
        if m:
            return m.group(1)
        for p, grep_re in ((pat, r"^[[:space:]]*#[[:space:]]*define[[:space:]]+" + name +
                            r"([[:space:]]|$)"),
                           (enum, r"^[[:space:]]*" + name + r"[[:space:]]*=")):
            out = subprocess.run(["grep", "-rlE", "--include=*.h", grep_re] + dirs,
                                 capture_output=True, text=True).stdout.split()
            for path in out:      # grep lists them in the order of dirs
                with open(path, errors="replace") as f:
                    m = p.search(f.read())
                if m:
                    return m.group(1)
        return None

    def value(self, name, depth=0):
        if name in self.cache:
            return self.cache[name]
        body = self.define(name)
        if body is None or depth > 20:
            return None
        body = re.sub(r"/\*.*?(\*/|$)|//.*", "", body.replace("\\\n", " "), flags=re.S)
        val = self.expr(body, depth)
        self.cache[name] = val
        return val

    def expr(self, body, depth=0):
        body = re.sub(r"\b(BIT|BIT_ULL)\s*\(", "(1<<", body)
        body = re.sub(r"\(\s*(?:unsigned\s+)?(?:int|long|u32|u64|__u32|__u64)\s*\)", "", body)
        out = []
        for m in re.finditer(r"[A-Za-z_]\w*|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\S", body):
            w = m.group()
            if re.match(r"0[xX]", w):
                out.append(str(int(w.rstrip("uUlL"), 16)))
            elif w[0].isdigit():
                w = w.rstrip("uUlL")
                out.append(str(int(w, 8) if len(w) > 1 and w[0] == "0" else int(w)))
            elif w[0].isalpha() or w[0] == "_":
                v = self.value(w, depth + 1)
                if v is None:
                    return None
                out.append(str(v))
            elif w in "|&~()<>+-":
                out.append(w)
            else:
                return None
        try:
            return int(eval(" ".join(out).replace("< <", "<<"), {"__builtins__": {}}))
        except Exception:
            return None

# -------------------------------------------------------------- mutants


class Mutant:
    def __init__(self, path, func, op, offset, line, edits, desc):
        self.path, self.func, self.op = path, func, op
        self.offset, self.line = offset, line
        self.edits = edits          # [(start, end, replacement)]
        self.desc = desc


def line_of(src, off):
    return src.count("\n", 0, off) + 1


def guard_edit(src, toks, i, j, braceless):
    """Delete the statement toks[i..j]: the empty statement if it is a
    braceless body, else the whole line when it holds nothing else."""
    s, e = toks[i].start, toks[j].end
    if braceless:
        return (s, e, ";")
    ls = src.rfind("\n", 0, s) + 1
    le = src.find("\n", e)
    if src[ls:s].strip() == "" and src[e:le].strip() == "":
        return (ls, le + 1, "")
    return (s, e, "")


def mutants_of_function(path, src, toks, func, flags_only, body, masks):
    b0, b1 = body
    found = []
    # the if statements of the body: (if index, cond open, cond close,
    # body start, body end, condition kind)
    ifs = []
    for i in range(b0 + 1, b1):
        if toks[i].text == "if" and toks[i + 1].text == "(":
            c1 = match_close(toks, i + 1)
            s = c1 + 1
            e = statement_end(toks, s)
            ifs.append((i, i + 1, c1, s, e, cond_kind(toks[i + 2:c1])))

    def enclosing_flag_if(k):
        return any(s <= k <= e and kind == "flag" for _, _, _, s, e, kind in ifs)

    def reports_error(k):
        """k is in an if body that names an -E error (a void function's
        error guard: report, then return;)"""
        inner = [(s, e) for _, _, _, s, e, _ in ifs if s <= k <= e]
        if not inner:
            return False
        s, e = max(inner)
        return any(toks[x].text == "-" and toks[x + 1].kind == "ident" and
                   re.match(r"E[A-Z0-9]+$", toks[x + 1].text) for x in range(s, e))

    # braceless bodies of if/else: statement start index -> True
    braceless = set()
    for i in range(b0 + 1, b1):
        if toks[i].text == "if" and toks[i + 1].text == "(":
            s = match_close(toks, i + 1) + 1
            if toks[s].text != "{":
                braceless.add(s)
        elif toks[i].text == "else" and toks[i + 1].text not in ("{", "if"):
            braceless.add(i + 1)

    # del-guard
    for i in range(b0 + 1, b1):
        t = toks[i]
        if t.text == "return" and toks[i + 1].text == "-" and \
                toks[i + 2].kind == "ident" and toks[i + 2].text.startswith("E") and \
                toks[i + 3].text == ";":
            j, what = i + 3, "return -%s" % toks[i + 2].text
        elif t.text == "goto" and toks[i + 1].kind == "ident" and toks[i + 2].text == ";":
            j, what = i + 2, "goto %s" % toks[i + 1].text
        elif t.text == "return" and toks[i + 1].text == ";" and reports_error(i):
            j, what = i + 1, "return"
        else:
            continue
        if flags_only and not enclosing_flag_if(i):
            continue
        found.append(Mutant(path, func, "del-guard", t.start, line_of(src, t.start),
                            [guard_edit(src, toks, i, j, i in braceless)],
                            "%s(): delete `%s;`" % (func, what)))

    for (i, c0, c1, s, e, kind) in ifs:
        if kind is None or (flags_only and kind != "flag"):
            continue
        cstart, cend = toks[c0 + 1].start, toks[c1 - 1].end
        ctext = " ".join(src[cstart:cend].split())
        # negate-cond
        found.append(Mutant(path, func, "negate-cond", cstart, line_of(src, cstart),
                            [(cstart, cend, "!(" + src[cstart:cend] + ")")],
                            "%s(): if (%s) negated" % (func, ctext)))
        ctoks = list(range(c0 + 1, c1))
        # widen-mask: x & ~MASK, x & ~(MASK)
        for k in ctoks:
            if toks[k].text != "&" or toks[k + 1].text != "~":
                continue
            m = k + 2
            if toks[m].text == "(" and toks[m + 2].text == ")" and toks[m + 1].kind == "ident":
                m += 1
            if toks[m].kind != "ident" or not CONST.match(toks[m].text):
                continue
            name = toks[m].text
            val = masks.value(name)
            if val is None:
                print("mutagen: %s:%d: cannot evaluate %s; no widen-mask mutant"
                      % (path, line_of(src, toks[m].start), name), file=sys.stderr)
                continue
            bit = 0
            while val >> bit & 1:
                bit += 1
            found.append(Mutant(path, func, "widen-mask", toks[m].start,
                                line_of(src, toks[m].start),
                                [(toks[m].start, toks[m].end,
                                  "(%s | (1u << %d))" % (name, bit))],
                                "%s(): mask %s (%#x) widened by bit %d in if (%s)"
                                % (func, name, val, bit, ctext)))
        # shift-relop (length checks; a flag check's comparisons too)
        for k in ctoks:
            op = toks[k].text
            if op in RELOPS:
                found.append(Mutant(path, func, "shift-relop", toks[k].start,
                                    line_of(src, toks[k].start),
                                    [(toks[k].start, toks[k].end, RELOPS[op])],
                                    "%s(): `%s` -> `%s` in if (%s)"
                                    % (func, op, RELOPS[op], ctext)))
    return found


def apply_edits(src, edits):
    for s, e, r in sorted(edits, reverse=True):
        src = src[:s] + r + src[e:]
    return src


def udiff(path, old, new):
    with tempfile.TemporaryDirectory() as d:
        for side, text in (("a", old), ("b", new)):
            os.makedirs(os.path.dirname(os.path.join(d, side, path)), exist_ok=True)
            with open(os.path.join(d, side, path), "w") as f:
                f.write(text)
        r = subprocess.run(["diff", "-u", "--label", "a/" + path, "--label", "b/" + path,
                            os.path.join(d, "a", path), os.path.join(d, "b", path)],
                           capture_output=True, text=True)
        return r.stdout


def queue_patched(pristine, stage):
    """Copy the files the queue touches into stage and apply the queue."""
    kp = os.environ.get("PATCHBAY_KERNEL_PATCHES", os.path.join(ROOT, "kernel-patches"))
    series = []
    with open(os.path.join(kp, "series")) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                series.append(os.path.join(kp, line))
    wanted = {t[0] for t in TARGETS}
    for p in series:
        with open(p, errors="replace") as f:
            for line in f:
                m = re.match(r"^(?:---|\+\+\+) [ab]/(\S+)", line)
                if m:
                    wanted.add(m.group(1))
    for rel in sorted(wanted):
        src = os.path.join(pristine, rel)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(stage, rel)), exist_ok=True)
            shutil.copyfile(src, os.path.join(stage, rel))
    for p in series:
        r = subprocess.run(["patch", "-s", "-p1", "-F0", "-N", "--no-backup-if-mismatch",
                            "-d", stage, "-i", p], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("mutagen: %s does not apply: %s" % (p, r.stdout + r.stderr))


def find_pristine():
    cands = sorted(glob.glob(os.path.expanduser(
        os.path.join(os.environ.get("PATCHBAY_CACHE", "~/.cache/patchbay"),
                     "src/linux-source-6.12*"))))
    cands = [c for c in cands if os.path.isfile(os.path.join(c, "fs/open.c"))]
    if not cands:
        sys.exit("mutagen: no linux-source-6.12 under the cache's src/ (scripts/patchbay build)")
    return cands[-1]


def generate(pristine, functions=None):
    stage = tempfile.mkdtemp(prefix="mutagen.")
    try:
        queue_patched(pristine, stage)
        out = []
        for path, suite, funcs in TARGETS:
            with open(os.path.join(stage, path)) as f:
                src = f.read()
            toks = tokenize(src)
            masks = MaskEval(pristine, path, src)
            file_mutants = []
            for func, flags_only in funcs:
                if functions and func not in functions:
                    continue
                bodies = find_functions(toks, func)
                if not bodies:
                    sys.exit("mutagen: no definition of %s in %s" % (func, path))
                for body in bodies:
                    file_mutants += mutants_of_function(path, src, toks, func,
                                                        flags_only, body, masks)
            file_mutants.sort(key=lambda m: (m.offset, OPERATORS.index(m.op),
                                             m.edits[0][0]))
            for m in file_mutants:
                m.suite = suite
                m.src = src
            out += file_mutants
        return out
    finally:
        shutil.rmtree(stage)


def slug(s):
    return re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="results folder: DIR/variants/gen-NNNN, DIR/mutants.list")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--function", action="append", default=[])
    ap.add_argument("--list", action="store_true", help="only print the counts")
    ap.add_argument("--pristine", help="linux-source-6.12 folder (default: the cache's)")
    a = ap.parse_args()
    known = {f for _, _, fs in TARGETS for f, _ in fs}
    for f in a.function:
        if f not in known:
            sys.exit("mutagen: --function %s: not a target (%s)" % (f, ", ".join(sorted(known))))
    pristine = a.pristine or find_pristine()
    muts = generate(pristine)
    # names come from the index in the full list: stable under --function
    # and --sample
    for n, m in enumerate(muts):
        m.index = n + 1
        m.name = "gen-%04d" % m.index
    chosen = [m for m in muts if not a.function or m.func in a.function]
    if a.sample and a.sample < len(chosen):
        k = a.sample
        chosen = [chosen[(i * len(chosen)) // k + len(chosen) // (2 * k)] for i in range(k)]
    counts = {}
    for m in muts:
        counts.setdefault((m.path, m.op), 0)
        counts[(m.path, m.op)] += 1
    print("mutagen: %d mutants from %s + kernel-patches/series" % (len(muts), os.path.basename(pristine)),
          file=sys.stderr)
    for (p, op), c in sorted(counts.items()):
        print("  %-40s %-12s %d" % (p, op, c), file=sys.stderr)
    if a.list or not a.out:
        for m in chosen:
            print("%s\t%s\t%s:%d\t%s\t%s" % (m.name, m.op, m.path, m.line, m.func, m.desc))
        return
    vroot = os.path.join(a.out, "variants")
    os.makedirs(vroot, exist_ok=True)
    lines = []
    for m in chosen:
        d = os.path.join(vroot, m.name)
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
        pname = "%04d-%s-%s-%s-L%d.patch" % (m.index, slug(os.path.basename(m.path)[:-2]),
                                             slug(m.func), m.op, m.line)
        diff = udiff(m.path, m.src, apply_edits(m.src, m.edits))
        with open(os.path.join(d, pname), "w") as f:
            f.write("mutagen %s: %s:%d %s\n\n" % (m.name, m.path, m.line, m.desc))
            f.write(diff)
        with open(os.path.join(d, "series"), "w") as f:
            f.write(pname + "\n")
        with open(os.path.join(d, "variant"), "w") as f:
            f.write("# Generated by scripts/mutagen.py (%s): not chosen by hand.\n" % m.op)
            f.write("removes: %s:%d %s\n" % (m.path, m.line, m.desc))
            f.write("suites: %s\n" % m.suite)
            f.write("killed-by: %s\n" % m.suite)
        lines.append("%s\t%s\t%s:%d\t%s\t%s\t%s\n" % (m.name, m.op, m.path, m.line, m.func,
                                                      m.suite, m.desc))
    with open(os.path.join(a.out, "mutants.list"), "w") as f:
        f.writelines(lines)
    sys.stdout.writelines(lines)


if __name__ == "__main__":
    main()
