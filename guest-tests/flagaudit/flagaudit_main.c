/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flagaudit - which unknown flag bits each system call rejects.
 *
 * The rule of the kernel's API is "reject unknown flags with EINVAL" (LWN,
 * "Flag day", on the system calls that silently ignore unknown bits): a
 * call that ignores them can never give those bits a meaning, since old
 * programs may pass garbage there. For every flags argument of the calls
 * in the rows of fa_*.c, and every bit of it that the 6.12 uapi does not
 * define for that call, one case makes the call with that bit set and
 * records what the kernel does with it:
 *
 *     rejected   EINVAL
 *     ignored    success (or the row's "past the check" errno)
 *     kept       success, and the bit shows afterwards (F_GETFL, sa_flags)
 *     EXXX       another errno (EOPNOTSUPP: preadv2, MAP_SHARED_VALIDATE)
 *     killed by SIGX, hung   the throwaway child of the probe
 *
 * and compares it with the baseline, flagaudit.baseline next to this
 * executable (the behaviour of our 6.12 kernel: a line "NAME<TAB>RESULT"
 * per case). Any difference, in either direction, fails the case and names
 * both. A case the baseline lacks is a skip that names the result, so
 * that fa-baseline.py can add it; a call the kernel does not build
 * (ENOSYS) is a skip naming the option, unless the baseline says ENOSYS.
 *
 * Case names are stable: "CALL ARG bit N (0xX)".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "child.h"
#include "flagaudit.h"
#include "helpers.h"
#include "kconfig.h"

#define BASELINE_NAME "flagaudit.baseline"
#define BASELINE_MAX  (256 * 1024)
/* A probe child's deadline: the calls return at once. */
#define PROBE_MS 5000
/* A child's exit code for FA_KEPT; errnos are below it. */
#define EXIT_KEPT 200

char fa_dir[64];

/* A case: one unknown bit of a call's argument, or its control. */
#define CONTROL 64 /* the bit of the control: the call without the bit */

struct probe_case {
    const struct fa_call *call;
    unsigned int bit; /* or CONTROL */
};

static const char *program; /* argv[0]: the baseline is next to it */

static struct probe_case *cases;
static size_t ncases;

/* The baseline file, and its lines split into name and result. */
static char *baseline_text;
struct baseline_line {
    const char *name;
    const char *result;
};
static struct baseline_line *baseline;
static size_t nbaseline;

char *fa_path(char *buf, const char *name)
{
    snprintf(buf, PATH_MAX, "%s/%s", fa_dir, name);
    return buf;
}

int fa_make_file(const char *name)
{
    char path[PATH_MAX];
    int fd = open(fa_path(path, name), O_WRONLY | O_CREAT | O_TRUNC, 0644);

    if (fd < 0) {
        return -errno;
    }
    if (write(fd, "flagaudit\n", 10) != 10) {
        close(fd);
        return -EIO;
    }
    close(fd);
    return 0;
}

static const char *baseline_of(const char *name)
{
    for (size_t i = 0; i < nbaseline; i++) {
        if (strcmp(baseline[i].name, name) == 0) {
            return baseline[i].result;
        }
    }
    return NULL;
}

/* Read BASELINE_NAME from the directory of the program (argv[0]). */
static int load_baseline(char *why)
{
    char path[PATH_MAX], *slash, *line, *save = NULL;
    ssize_t len;

    str_copy(path, program, sizeof(path) - sizeof(BASELINE_NAME));
    slash = strrchr(path, '/');
    strcpy(slash ? slash + 1 : path, BASELINE_NAME);
    baseline_text = malloc(BASELINE_MAX);
    if (!baseline_text) {
        return kt_fail(why, "out of memory");
    }
    len = read_file(path, baseline_text, BASELINE_MAX);
    if (len < 0) {
        return kt_fail(why, "%s: %s", path, errno_name((int)-len));
    }
    if (len >= BASELINE_MAX - 1) {
        return kt_fail(why, "%s: larger than %d bytes", path, BASELINE_MAX);
    }
    for (line = strtok_r(baseline_text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        char *tab = strchr(line, '\t');

        if (line[0] == '#' || !tab) {
            continue;
        }
        *tab = '\0';
        baseline = realloc(baseline, (nbaseline + 1) * sizeof(*baseline));
        if (!baseline) {
            return kt_fail(why, "out of memory");
        }
        baseline[nbaseline].name = line;
        baseline[nbaseline].result = tab + 1;
        nbaseline++;
    }
    if (nbaseline == 0) {
        return kt_fail(why, "%s has no case", path);
    }
    return 0;
}

static int setup(char *why)
{
    int err = load_baseline(why);

    if (err) {
        return err;
    }
    /* the programs of the suite run in a fresh directory under /tmp */
    snprintf(fa_dir, sizeof(fa_dir), "/tmp/flagaudit-XXXXXX");
    if (!mkdtemp(fa_dir)) {
        return kt_fail(why, "mkdtemp: %s", errno_name(errno));
    }
    err = fa_make_file("file");
    if (!err) {
        err = fa_make_file("file2");
    }
    if (!err && mkdir(fa_path((char[PATH_MAX]){0}, "mnt"), 0755) < 0) {
        err = -errno;
    }
    if (!err && mkdir(fa_path((char[PATH_MAX]){0}, "mnt2"), 0755) < 0) {
        err = -errno;
    }
    if (err) {
        return kt_fail(why, "scratch files in %s: %s", fa_dir,
                       errno_name(-err));
    }
    return 0;
}

/* ---- a probe in a throwaway child ---- */

/* The argument's value of a case: its bit, or nothing for the control. */
static uint64_t probe_value(const struct probe_case *pc)
{
    return pc->bit == CONTROL ? 0 : 1ULL << pc->bit;
}

static void probe_child(void *arg)
{
    const struct probe_case *pc = arg;
    int res = pc->call->probe(probe_value(pc));

    _exit(res == FA_KEPT ? EXIT_KEPT : res);
}

/*
 * Run the probe in a child; its result, or -1 with how the child ended in
 * how ("killed by SIGSEGV", "hung").
 */
static int probe_in_child(const struct probe_case *pc, char *how, size_t len)
{
    struct child_spec spec = {
        .fn = probe_child,
        .arg = (void *)pc,
        .total_ms = PROBE_MS,
    };
    struct child_result res;

    if (child_run(&spec, &res) < 0) {
        snprintf(how, len, "fork: %s", errno_name(res.err));
        return -1;
    }
    if (res.timed_out) {
        snprintf(how, len, "hung");
        return -1;
    }
    if (res.signal) {
        snprintf(how, len, "killed by SIG%s", sigabbrev_np(res.signal));
        return -1;
    }
    if (res.exited && res.exit_code == EXIT_KEPT) {
        return FA_KEPT;
    }
    if (res.exited && res.exit_code < EXIT_KEPT) {
        return res.exit_code;
    }
    snprintf(how, len, "exited with status %d", res.exit_code);
    return -1;
}

/* ---- results ---- */

/* The result's token, as the baseline spells it. */
static const char *result_token(const struct fa_call *call, int res,
                                const char *how)
{
    if (res == -1 && how[0]) {
        return how;
    }
    if (res == FA_KEPT) {
        return "kept";
    }
    if (res == 0 || (call->went_on && res == call->went_on)) {
        return "ignored";
    }
    if (res == EINVAL) {
        return "rejected";
    }
    return errno_name(res);
}

/* A result token for a human: "rejected (EINVAL)", "failed with EPERM". */
static void describe(char *buf, size_t len, const char *token)
{
    if (strcmp(token, "rejected") == 0) {
        snprintf(buf, len, "rejected (EINVAL)");
    } else if (strcmp(token, "ignored") == 0) {
        snprintf(buf, len, "ignored (accepted, no effect asked for)");
    } else if (strcmp(token, "kept") == 0) {
        snprintf(buf, len, "kept (accepted, and the bit stays set)");
    } else if (token[0] == 'E') {
        snprintf(buf, len, "failed with %s", token);
    } else {
        snprintf(buf, len, "%s", token);
    }
}

/* The case's name: "CALL ARG bit N (0xX)", "CALL ARG control". */
static void case_name(const struct probe_case *pc, char *buf, size_t len)
{
    if (pc->bit == CONTROL) {
        snprintf(buf, len, "%s %s control", pc->call->call, pc->call->arg);
        return;
    }
    snprintf(buf, len, "%s %s bit %u (0x%llx)", pc->call->call, pc->call->arg,
             pc->bit, 1ULL << pc->bit);
}

static int c_probe(unsigned long idx, char *why)
{
    const struct probe_case *pc = &cases[idx];
    const char *token, *base;
    char name[KT_NAME_LEN], how[64] = "", got[80];
    int res;

    case_name(pc, name, sizeof(name));

    if (pc->call->child) {
        res = probe_in_child(pc, how, sizeof(how));
    } else {
        res = pc->call->probe(probe_value(pc));
    }
    token = result_token(pc->call, res, how);
    if (pc->bit == CONTROL) {
        /* the call without an unknown bit works: the probes can tell */
        if (res == ENOSYS) {
            return kt_skip(why, "%s: ENOSYS, not built%s%s%s", pc->call->call,
                           pc->call->needs ? " (needs " : "",
                           pc->call->needs ? pc->call->needs : "",
                           pc->call->needs ? ")" : "");
        }
        if (strcmp(token, "ignored") != 0) {
            describe(got, sizeof(got), token);
            return kt_fail(why, "without an unknown bit: %s, expected success",
                           got);
        }
        return KTAP_PASS;
    }
    base = baseline_of(name);
    if (res == ENOSYS && !(base && strcmp(base, "ENOSYS") == 0)) {
        return kt_skip(why, "%s: ENOSYS, not built%s%s%s", pc->call->call,
                       pc->call->needs ? " (needs " : "",
                       pc->call->needs ? pc->call->needs : "",
                       pc->call->needs ? ")" : "");
    }
    describe(got, sizeof(got), token);
    if (!base) {
        return kt_skip(why, "not in %s: %s", BASELINE_NAME, got);
    }
    if (strcmp(base, token) != 0) {
        return kt_fail(why, "%s, baseline: %s", got, base);
    }
    return KTAP_PASS;
}

static void add_calls(const struct fa_call *calls, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct fa_call *call = &calls[i];

        /* the control first, then each unknown bit */
        for (unsigned int b = 0; b <= call->width; b++) {
            unsigned int bit = b == 0 ? CONTROL : b - 1;

            if (bit != CONTROL && (call->known & (1ULL << bit))) {
                continue;
            }
            cases = realloc(cases, (ncases + 1) * sizeof(*cases));
            if (!cases) {
                perror("realloc");
                exit(1);
            }
            char name[KT_NAME_LEN];

            cases[ncases].call = call;
            cases[ncases].bit = bit;
            case_name(&cases[ncases], name, sizeof(name));
            kt_add_needs(call->needs, c_probe, ncases, "%s", name);
            ncases++;
        }
    }
}

int main(int argc, char **argv)
{
    program = argc > 0 ? argv[0] : "flagaudit";
    /* an accepted bit of sigaction or clone must not stop the program */
    signal(SIGPIPE, SIG_IGN);
    add_calls(fa_proc_calls, fa_proc_ncalls);
    add_calls(fa_fs_calls, fa_fs_ncalls);
    add_calls(fa_mount_calls, fa_mount_ncalls);
    add_calls(fa_net_calls, fa_net_ncalls);
    return kt_run(setup);
}
