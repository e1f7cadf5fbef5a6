/* SPDX-License-Identifier: GPL-2.0 */
/*
 * episode.c - the episodes of a fault campaign (episode.h): the plan per
 * seed, the workload and the recovery check in children with deadlines,
 * the kernel log of each episode, the findings.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "child.h"
#include "episode.h"
#include "ktap.h"
#include "pbctl.h"

/*
 * More kernel lines than this at console level (warning and worse, what
 * loglevel=5 prints) in one episode is a log flood: a workload episode
 * makes a handful, a driver retrying through the recovery check a few
 * hundred (w1_ds2413 warns at every retry).
 */
#define FLOOD_LINES 1000

/* The kernel reports the host's crash scanner knows (lib/ktap/crashscan.c). */
static const char *const report_starts[] = {
    "Kernel panic", "Unable to handle kernel", "Internal error:",
    "kernel BUG at", "BUG: ", "WARNING: ", "UBSAN: ", "INFO: task ",
    "rcu: INFO: rcu_", "INFO: rcu_", "watchdog: ",
};

struct fc_args {
    uint64_t first;
    unsigned count;
    bool replay;
};

static char cmdline[4096];

static const char *cmdline_get(const char *key)
{
    size_t klen = strlen(key);

    for (const char *p = cmdline; (p = strstr(p, key)) != NULL; p += klen) {
        if ((p == cmdline || p[-1] == ' ') && p[klen] == '=') {
            return p + klen + 1;
        }
    }
    return NULL;
}

static void parse_args(struct fc_args *a)
{
    const char *v;

    read_file("/proc/cmdline", cmdline, sizeof(cmdline));
    a->first = (v = cmdline_get("faultcamp.first")) ? strtoull(v, NULL, 10) : 1;
    a->count = (v = cmdline_get("faultcamp.count")) ? strtoul(v, NULL, 10) : 10;
    a->replay = (v = cmdline_get("faultcamp.replay")) && *v == '1';
    if (a->replay) {
        a->count = 1;
    }
}

/* "seed=S,kind=p,..." for seed, or with seed 0 only the rates. */
static void plan_text(const struct fc_device *dev, uint64_t seed, char *out,
                      size_t len)
{
    size_t n = 0;

    out[0] = '\0';
    if (seed) {
        n += snprintf(out, len, "seed=%llu", (unsigned long long)seed);
    }
    for (size_t i = 0; i < dev->nrates && n < len; i++) {
        n += snprintf(out + n, len - n, "%s%s=%u", n ? "," : "",
                      dev->rates[i].kind, dev->rates[i].permille);
    }
}

void fc_op(struct fc_report *rep, const char *op)
{
    str_copy(rep->op, op, sizeof(rep->op));
}

void fc_wrong(struct fc_report *rep, const char *fmt, ...)
{
    va_list ap;

    if (rep->verdict == FC_WRONG) {
        return; /* the first one tells */
    }
    rep->verdict = FC_WRONG;
    str_copy(rep->wrong_op, rep->op, sizeof(rep->wrong_op));
    va_start(ap, fmt);
    vsnprintf(rep->detail, sizeof(rep->detail), fmt, ap);
    va_end(ap);
}

/* ---- the kernel log of one episode ---------------------------------------- */

struct klog {
    int fd;
    unsigned lines;    /* records at console level */
    char report[200];  /* the first crash report's first line, or "" */
};

static void klog_start(struct klog *k)
{
    if (k->fd <= 0) {
        k->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    }
    if (k->fd >= 0) {
        lseek(k->fd, 0, SEEK_END);
    }
    k->lines = 0;
    k->report[0] = '\0';
}

/* One record: "prio,seq,usec,flags;text\n continuation..." */
static void klog_record(struct klog *k, char *rec)
{
    char *text = strchr(rec, ';');
    int level = atoi(rec) & 7;

    if (!text) {
        return;
    }
    text++;
    text[strcspn(text, "\n")] = '\0';
    if (level < 5) {
        k->lines++;
    }
    for (size_t i = 0; i < ARRAY_SIZE(report_starts) && !k->report[0]; i++) {
        if (!strncmp(text, report_starts[i], strlen(report_starts[i]))) {
            str_copy(k->report, text, sizeof(k->report));
        }
    }
}

/* Everything the kernel logged since klog_start(). */
static void klog_collect(struct klog *k)
{
    char rec[8192];
    ssize_t n;

    if (k->fd < 0) {
        return;
    }
    for (;;) {
        n = read(k->fd, rec, sizeof(rec) - 1);
        if (n < 0 && errno == EPIPE) {
            continue; /* overwritten records: the flood is counted anyway */
        }
        if (n <= 0) {
            return;
        }
        rec[n] = '\0';
        klog_record(k, rec);
    }
}

/* ---- children with deadlines ---------------------------------------------- */

static struct fc_report *rep; /* MAP_SHARED */
static const struct fc_device *cur_dev;
static uint64_t cur_seed;

static void workload_child(void *arg)
{
    (void)arg;
    cur_dev->workload(cur_seed, rep);
    rep->done = 1;
    _exit(0);
}

static void recover_child(void *arg)
{
    (void)arg;
    rep->done = cur_dev->recover(rep) == 0;
    _exit(0);
}

/*
 * fn in a child within ms. Returns 0 when it finished, else a finding kind
 * ("hang", "child-died") with how into how.
 */
static const char *in_child(void (*fn)(void *), long ms, char *how, size_t hl)
{
    struct child_spec spec = {.fn = fn, .total_ms = ms};
    struct child_result cr;
    char desc[200];

    memset(rep, 0, sizeof(*rep));
    if (child_run(&spec, &cr) < 0) {
        snprintf(how, hl, "fork: %s", errno_name(cr.err));
        return "child-died";
    }
    if (cr.timed_out) {
        snprintf(how, hl, "still running after %ld ms (the bound), killed", ms);
        return "hang";
    }
    if (child_describe(&cr, "the workload", desc, sizeof(desc))) {
        snprintf(how, hl, "%s", desc);
        return "child-died";
    }
    return NULL;
}

/* ---- an episode ----------------------------------------------------------- */

struct finding {
    const char *kind;
    char op[48];
    char detail[KT_WHY_LEN];
};

static void finding_set(struct finding *f, const char *kind, const char *op,
                        const char *detail)
{
    f->kind = kind;
    str_copy(f->op, op && op[0] ? op : "-", sizeof(f->op));
    str_copy(f->detail, detail, sizeof(f->detail));
    for (char *p = f->detail; *p; p++) {
        if (*p == '\n' || *p == '#') {
            *p = ' '; /* one line, and no KTAP directive in a reason */
        }
    }
}

/* The plan set, the workload, the plan cleared, the device checked. */
static int episode(const struct fc_device *dev, uint64_t seed, bool replay,
                   struct klog *k, struct finding *f)
{
    char plan[512], counts[256] = "", how[KT_WHY_LEN];
    const char *kind;

    cur_dev = dev;
    cur_seed = seed;
    f->kind = NULL;
    klog_start(k);
    if (!replay) {
        plan_text(dev, seed, plan, sizeof(plan));
        if (pbctl_fault_plan(dev->qom, plan, "")) {
            finding_set(f, "trouble", "plan", pbctl_last_reply());
            return -1;
        }
    }
    kind = in_child(workload_child, dev->workload_ms, how, sizeof(how));
    if (kind) {
        finding_set(f, kind, rep->op, how);
    } else if (rep->verdict == FC_WRONG) {
        finding_set(f, "wrong-data", rep->wrong_op, rep->detail);
    }
    if (!replay) {
        pbctl_qom_get_str(dev->qom, "fault-counts", counts, sizeof(counts));
        if (pbctl_fault_plan(dev->qom, "", "")) {
            finding_set(f, "trouble", "plan", pbctl_last_reply());
            return -1;
        }
    }
    /*
     * Under faultcamp.replay the plan stays on (clearing it is a qom-set,
     * which no replay repeats): the check retries for seconds, so the
     * plan's few faults rarely fail it, and a device broken for good
     * still does.
     */
    if (!f->kind) {
        kind = in_child(recover_child, dev->recover_ms, how, sizeof(how));
        if (kind || !rep->done) {
            snprintf(f->detail, sizeof(f->detail), "%s",
                     kind ? how : rep->detail);
            finding_set(f, "not-recovered", rep->op, f->detail);
        }
    }
    klog_collect(k);
    /* the kernel's word first: a hang or a failed check follows from it */
    if (k->report[0]) {
        finding_set(f, "kernel-report", "-", k->report);
    } else if (!f->kind && k->lines > FLOOD_LINES) {
        snprintf(how, sizeof(how), "%u kernel lines in one episode",
                 k->lines);
        finding_set(f, "log-flood", "-", how);
    }
    if (!replay) {
        /* the host's histogram of faults per episode */
        ktap_print_msg("faultcamp counts seed=%llu: %s",
                       (unsigned long long)seed, counts);
    }
    return f->kind ? -1 : 0;
}

int fc_main(const struct fc_device *dev)
{
    struct fc_args a;
    struct klog k = {.fd = -1};
    struct finding f;
    char why[KT_WHY_LEN] = "", rates[512], name[64];

    setvbuf(stdout, NULL, _IOLBF, 0);
    parse_args(&a);
    rep = mmap(NULL, sizeof(*rep), PROT_READ | PROT_WRITE,
               MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ktap_print_header();
    ktap_set_plan(a.count);
    plan_text(dev, 0, rates, sizeof(rates));
    ktap_print_msg("faultcamp device: %s %s", dev->name, dev->qom);
    ktap_print_msg("faultcamp rates: %s", rates);
    if (rep == MAP_FAILED || (!a.replay && pbctl_open()) || dev->setup(why)) {
        if (rep == MAP_FAILED) {
            snprintf(why, sizeof(why), "mmap: %s", errno_name(errno));
        } else if (!why[0]) {
            snprintf(why, sizeof(why), "%s", pbctl_unavailable_reason());
        }
        ktap_print_msg("faultcamp setup failed: %s", why);
        ktap_test_fail("setup", "%s", why);
        return ktap_finished();
    }
    for (unsigned i = 0; i < a.count; i++) {
        uint64_t seed = a.first + i;

        snprintf(name, sizeof(name), "seed %llu", (unsigned long long)seed);
        if (episode(dev, seed, a.replay, &k, &f) == 0) {
            ktap_test_pass(name);
            continue;
        }
        ktap_print_msg("faultcamp finding seed=%llu kind=%s op=%s: %s",
                       (unsigned long long)seed, f.kind, f.op, f.detail);
        ktap_test_fail(name, "%s in %s: %s", f.kind, f.op, f.detail);
        ktap_print_msg("faultcamp stopped after a finding");
        break;
    }
    return ktap_finished();
}
