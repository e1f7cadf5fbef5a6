/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_many - the w1many suite: a DS2490 with 100 DS2401s on its bus, more
 * than the kernel's max_slave_count (64), in realtime timing as the chip
 * (images/suites/w1many.qemu; docs/suites/w1many.md).
 *
 * Expectations follow drivers/w1/masters/ds2490.c (ds9490r_search()) with
 * kernel-patches/0006 and drivers/w1/w1.c of Linux 6.12: the driver asks
 * the DS2490 for at most max_slave_count ids per search (SEARCH_ACCESS,
 * N = max_slave_count); when devices remain, the chip says so after the
 * last id and the driver continues the next search from that id (which it
 * reports again), logging "max_slave_count N reached, will continue next
 * search." once per max_slave_count setting. A search cycle thus takes
 * ceil((100 - 1) / (N - 1)) searches: 2 at 64, 3 at 50, 1 at 100 and up;
 * every slave is found at least once a cycle, and with slave_ttl >= the
 * cycle length (images/suites/w1many.append: 3) none ages out. Without the
 * fix the search never continues at the chip's pace: only the first
 * max_slave_count slaves in search order appear.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pbctl.h"
#include "w1util.h"

#define NSLAVES 100
#define DEFAULT_MAX 64
#define MAX_PATH W1_MASTER "/w1_master_max_slave_count"
#define ATTEMPTS_PATH W1_MASTER "/w1_master_attempts"
/* virtual time: a search of 100 slaves takes ~1.5 s, then 1 s of pause */
#define SEARCH_MS 20000 /* one search, at most */
#define PROBE_MS 20000
/* the searches a cycle takes at max_slave_count n, 100 slaves */
#define CYCLE(n) ((n) >= NSLAVES ? 1 : (NSLAVES - 1 + (n) - 2) / ((n) - 1))
/* ds9490r_search()'s message, once per max_slave_count setting */
#define CONTINUE_FMT "ds9490r_search: max_slave_count %d reached, will " \
                     "continue next search."

/*
 * The suite's hardware as the host declared it: build-initramfs copies
 * images/suites/w1many.qemu to /suites/w1many/qemu, so the ROM ids are
 * written in one place only.
 */
#define TOPOLOGY "/suites/w1many/qemu"

/* the DS2401s of TOPOLOGY, in search order after many_topology_init() */
static struct many_rom {
    uint64_t key; /* ROM bit 0 as the most significant: search order */
    char name[16];
    uint8_t id[8];
} roms[NSLAVES];

static int key_cmp(const void *a, const void *b)
{
    const struct many_rom *x = a, *y = b;

    return x->key < y->key ? -1 : x->key > y->key;
}

/* Returns the number of DS2401s TOPOLOGY declares (-1: unreadable). */
static int many_topology_init(void)
{
    FILE *f = fopen(TOPOLOGY, "r");
    char line[256];
    int n = 0;

    if (!f) {
        return -1;
    }
    while (fgets(line, sizeof(line), f)) {
        const char *rom = strstr(line, "rom=01-");
        unsigned long long serial;
        struct many_rom *r;

        if (!strstr(line, "onewire-ds2401") || !rom ||
            sscanf(rom, "rom=01-%12llx", &serial) != 1) {
            continue;
        }
        if (n++ >= NSLAVES) {
            continue; /* counted, so that the caller sees the mismatch */
        }
        r = &roms[n - 1];
        w1_make_rom(0x01, serial, r->id, r->name, sizeof(r->name));
        r->key = 0;
        for (int b = 0; b < 64; b++) {
            r->key |= (uint64_t)((r->id[b >> 3] >> (b & 7)) & 1) << (63 - b);
        }
    }
    fclose(f);
    if (n == NSLAVES) {
        qsort(roms, NSLAVES, sizeof(roms[0]), key_cmp);
    }
    return n;
}

static long read_or(const char *path, long dflt)
{
    long v;

    return read_long(path, &v) ? dflt : v;
}

/*
 * Compare w1_master_slaves and w1_master_slave_count with all NSLAVES
 * slaves, each once, each with its directory; KTAP_PASS or the first
 * difference (a missing slave named with its place in search order).
 */
static int check_all(char *why)
{
    static char buf[8192];
    int seen[NSLAVES] = { 0 };
    int listed = 0, first_missing = -1, missing = 0;
    long count = master_slave_count();
    char *line, *save = NULL;

    if (read_file(W1_MASTER "/w1_master_slaves", buf, sizeof(buf)) < 0) {
        return kt_fail(why, "read w1_master_slaves: %s", strerror(errno));
    }
    for (line = strtok_r(buf, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        int i;

        if (!strcmp(line, "not found.")) {
            continue;
        }
        for (i = 0; i < NSLAVES && strcmp(line, roms[i].name); i++) {
        }
        if (i == NSLAVES) {
            return kt_fail(why, "w1_master_slaves lists %s, not on the bus",
                           line);
        }
        if (seen[i]++) {
            return kt_fail(why, "w1_master_slaves lists %s twice", line);
        }
        if (!slave_dir_exists(line)) {
            return kt_fail(why, "%s listed but no %s/%s", line, W1_DEVICES,
                           line);
        }
        listed++;
    }
    for (int i = 0; i < NSLAVES; i++) {
        if (!seen[i]) {
            first_missing = first_missing < 0 ? i : first_missing;
            missing++;
        }
    }
    if (missing) {
        return kt_fail(why,
                       "%d listed, %d missing, the first %s (number %d in "
                       "search order)",
                       listed, missing, roms[first_missing].name,
                       first_missing + 1);
    }
    if (count != NSLAVES) {
        return kt_fail(why, "w1_master_slave_count %ld, expected %d", count,
                       NSLAVES);
    }
    return KTAP_PASS;
}

/* Wait until a search starts after the one under way (w1_master_attempts). */
static bool next_search(long *attempts)
{
    long long end = now_ms() + SEARCH_MS;

    while (read_or(ATTEMPTS_PATH, -1) <= *attempts) {
        if (*attempts < 0 || now_ms() >= end) {
            return false;
        }
        sleep_ms(100);
    }
    *attempts = read_or(ATTEMPTS_PATH, -1);
    return true;
}

/* Wait until n more searches have started (w1_master_attempts). */
static bool wait_searches(int n, long timeout_ms)
{
    long long end = now_ms() + timeout_ms;
    long start = read_or(ATTEMPTS_PATH, -1);

    for (;;) {
        long attempts = read_or(ATTEMPTS_PATH, -1);

        /* the master may not be there yet: USB enumerates it after /init
         * starts, sooner or later as the host is busy */
        if (start < 0) {
            start = attempts;
        } else if (attempts >= start + n) {
            return true;
        }
        if (now_ms() >= end) {
            return false;
        }
        sleep_ms(100);
    }
}

/*
 * All NSLAVES listed by the end of the n-th search from now (the one under
 * way counts as the first; w1_master_attempts grows as a search starts, so
 * the n-th has ended when the (n+1)-th starts): poll check_all().
 */
static int appear_within(int n, char *why)
{
    long attempts = read_or(ATTEMPTS_PATH, -1);
    long long end = now_ms() + SEARCH_MS;
    int searches = 1;

    for (;;) {
        long now;

        if (!check_all(why)) {
            return KTAP_PASS;
        }
        now = read_or(ATTEMPTS_PATH, -1);
        if (attempts >= 0 && now > attempts) {
            searches += (int)(now - attempts);
            attempts = now;
            end = now_ms() + SEARCH_MS;
            if (searches > n) {
                char pfx[32];

                if (!check_all(why)) {
                    return KTAP_PASS;
                }
                snprintf(pfx, sizeof(pfx), "after %d searches", n);
                kt_why_prefix(why, pfx);
                return KTAP_FAIL;
            }
        }
        if (attempts < 0 || now_ms() >= end) {
            return kt_fail(why, "no new search in %d ms (w1_master_attempts)",
                           SEARCH_MS);
        }
        sleep_ms(100);
    }
}

/*
 * For n whole searches from now (after the one under way), every 100 ms:
 * all NSLAVES listed, each once, w1_master_slave_count NSLAVES. A slave
 * the search stops finding ages out within slave_ttl searches.
 */
static int stay_for(int n, char *why)
{
    long attempts = read_or(ATTEMPTS_PATH, -1);

    for (int i = 0; i <= n; i++) {
        long long end = now_ms() + SEARCH_MS;

        while (read_or(ATTEMPTS_PATH, -1) <= attempts) {
            int r = check_all(why);

            if (r) {
                return r;
            }
            if (attempts < 0 || now_ms() >= end) {
                return kt_fail(why, "no new search in %d ms "
                               "(w1_master_attempts)", SEARCH_MS);
            }
            sleep_ms(100);
        }
        attempts = read_or(ATTEMPTS_PATH, -1);
    }
    return check_all(why);
}

/* How often needle is in the kernel log after marker (NULL: all of it). */
static int klog_count(const char *marker, const char *needle)
{
    char *log = klog_read_all(), *p, *next;
    int n = 0;

    if (!log) {
        return -1;
    }
    p = log;
    if (marker) {
        p = strstr(log, marker);
        if (!p) {
            free(log);
            return -1;
        }
        while ((next = strstr(p + 1, marker))) {
            p = next;
        }
    }
    while ((p = strstr(p, needle))) {
        n++;
        p += strlen(needle);
    }
    free(log);
    return n;
}

/* the continuation message for max_slave_count max, once after marker */
static int logged_once(const char *marker, int max, char *why)
{
    char needle[128];
    int n;

    snprintf(needle, sizeof(needle), CONTINUE_FMT, max);
    n = klog_count(marker, needle);
    if (n < 0) {
        return kt_fail(why, "kernel log unreadable%s", marker ?
                       " or without the marker" : "");
    }
    if (n != 1) {
        return kt_fail(why, "\"%s\" logged %d times%s, expected once", needle,
                       n, marker ? " since the write" : "");
    }
    return KTAP_PASS;
}

static int set_max(long max, char *why)
{
    char text[32];
    int err;

    snprintf(text, sizeof(text), "%ld\n", max);
    err = write_str(MAX_PATH, text);
    if (err) {
        return kt_fail(why, "write %ld to w1_master_max_slave_count: %s", max,
                       errno_name(-err));
    }
    if (read_or(MAX_PATH, -1) != max) {
        return kt_fail(why, "w1_master_max_slave_count %ld after writing %ld",
                       read_or(MAX_PATH, -1), max);
    }
    return KTAP_PASS;
}

/* ---- cases ---------------------------------------------------------------- */

/* the default max_slave_count, then all slaves within a cycle and a spare */
static int c_default_all(unsigned long arg, char *why)
{
    long v = read_or(MAX_PATH, -1);

    (void)arg;
    if (v != DEFAULT_MAX) {
        return kt_fail(why, "w1_master_max_slave_count %ld, expected %d", v,
                       DEFAULT_MAX);
    }
    return appear_within(CYCLE(DEFAULT_MAX) + 1, why);
}

/* the continuation message for the default, logged exactly once */
static int c_logged_once(unsigned long arg, char *why)
{
    (void)arg;
    return logged_once(NULL, DEFAULT_MAX, why);
}

/* arg searches more at the current max_slave_count: all stay, none twice */
static int c_stay(unsigned long arg, char *why)
{
    return stay_for((int)arg, why);
}

/*
 * Set max_slave_count to arg at run time: all listed within a cycle (one
 * more search: the one under way began with the old limit), they stay for
 * two more cycles, and the continuation message comes once if the limit
 * is below NSLAVES, never otherwise.
 */
static int c_set_max(unsigned long arg, char *why)
{
    char marker[96];
    int max = (int)arg, r, n;
    int cycle = CYCLE(max);

    kmsg_mark(marker, sizeof(marker), "w1_many max_slave_count");
    r = set_max((long)arg, why);
    if (!r) {
        r = appear_within(cycle + 1, why);
    }
    if (!r) {
        r = stay_for(2 * cycle + 1, why);
    }
    if (r) {
        return r;
    }
    if (max < NSLAVES) {
        return logged_once(marker, max, why);
    }
    n = klog_count(marker, "will continue next search");
    if (n != 0) {
        return kt_fail(why, "\"will continue next search\" logged %d times "
                       "with max_slave_count %d", n, max);
    }
    return KTAP_PASS;
}

/* w1_master_max_slave_count refuses a count below 1, and non-numbers */
static int c_max_refused(unsigned long arg, char *why)
{
    static const char *const bad[] = { "0\n", "-1\n", "many\n" };
    int err = write_str(MAX_PATH, bad[arg]);
    long v = read_or(MAX_PATH, -1);

    if (v != DEFAULT_MAX) {
        return kt_fail(why, "w1_master_max_slave_count %ld afterwards, "
                       "expected %d kept", v, DEFAULT_MAX);
    }
    return kt_expect_errno(why, "write", -err, EINVAL);
}

/*
 * ds9490r_search() means to sleep jtime, msecs_to_jiffies(1000 * 8 / 75)
 * = 106 ms, before each status poll ("sleep for discovering 8 devices (1
 * bulk transfer and 1/2 FIFO size) at a time"): a search of at most 64 ids
 * at the chip's 13.16 ms each is then done in about 9 polls.  The DS2490's
 * fault-events (an empty plan counts them from when it is set) give the
 * EP1 status reads over PACE_SEARCHES searches; a search may take twice
 * the polls it needs, and the window one search more than it counts.
 */
#define DS2490_MANY_QOM QOM_PERIPH "ds2490-many"
#define PACE_SEARCHES 4
#define PACE_POLLS_MAX (2 * (DEFAULT_MAX * 1316 / 10600 + 2))

static int c_search_pace(unsigned long arg, char *why)
{
    char events[512];
    const char *p;
    long long ep1;

    (void)arg;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (pbctl_fault_plan(DS2490_MANY_QOM, "", "")) {
        return kt_fail(why, "%s", pbctl_last_reply());
    }
    if (!wait_searches(PACE_SEARCHES, PACE_SEARCHES * SEARCH_MS)) {
        return kt_fail(why, "%d searches did not start within %d ms",
                       PACE_SEARCHES, PACE_SEARCHES * SEARCH_MS);
    }
    if (pbctl_qom_get_str(DS2490_MANY_QOM, "fault-events", events,
                          sizeof(events))) {
        return kt_fail(why, "%s", pbctl_last_reply());
    }
    p = strstr(events, "ep1=");
    ep1 = p ? strtoll(p + 4, NULL, 10) : 0;
    ktap_print_msg("%d searches: fault-events \"%s\"", PACE_SEARCHES,
                   events);
    if (ep1 > (long long)(PACE_SEARCHES + 1) * PACE_POLLS_MAX) {
        return kt_fail(why, "%lld status reads in %d searches, more than %d "
                       "a search: the search polls without its 106 ms sleep",
                       ep1, PACE_SEARCHES, PACE_POLLS_MAX);
    }
    return KTAP_PASS;
}

/*
 * In order: the default limit first, then the run-time changes (each case
 * starts from the state the one before left), then the refusals at 64.
 */
static const struct kt_row cases[] = {
    { "M1 max_slave_count 64 (the default), 100 slaves: all 100 listed "
      "within 3 searches, each once (the search continues past 64)",
      NULL, c_default_all, 0 },
    { "M2 the kernel logs \"max_slave_count 64 reached, will continue next "
      "search.\" exactly once",
      NULL, c_logged_once, 0 },
    { "M3 max_slave_count 64, 6 more searches: all 100 stay listed, none "
      "twice, the count 100 throughout",
      NULL, c_stay, 6 },
    { "M4 max_slave_count raised to 128 at run time: all 100 in one search, "
      "they stay, nothing logged",
      NULL, c_set_max, 128 },
    { "M5 max_slave_count 50: all 100 stay listed (the search continues over "
      "3 searches), logged once",
      NULL, c_set_max, 50 },
    { "M6 max_slave_count back to 64: all 100 stay listed, logged once again",
      NULL, c_set_max, DEFAULT_MAX },
    { "M7 w1_master_max_slave_count 0 refused with EINVAL", NULL,
      c_max_refused, 0 },
    { "M7 w1_master_max_slave_count -1 refused with EINVAL", NULL,
      c_max_refused, 1 },
    { "M7 w1_master_max_slave_count \"many\" refused with EINVAL", NULL,
      c_max_refused, 2 },
    { "M8 the search polls the DS2490's status every 106 ms, as "
      "ds9490r_search() means to: at most 18 status reads a search",
      NULL, c_search_pace, 0 },
};

/* the DS2490 enumerated and its bus master searching */
static int setup(char *why)
{
    if (!wait_searches(1, PROBE_MS)) {
        return kt_fail(why, "no search on %s within %d ms (w1_master_attempts)",
                       W1_MASTER, PROBE_MS);
    }
    return KTAP_PASS;
}

int main(void)
{
    int declared;

    setvbuf(stdout, NULL, _IOLBF, 0);
    declared = many_topology_init();
    kt_add_table(cases, ARRAY_SIZE(cases));
    ktap_print_header();
    ktap_set_plan(kt_count());
    if (declared != NSLAVES) {
        /* every case compares against the topology: none can run */
        printf("Bail out! %s declares %d DS2401s, the cases expect %d\n",
               TOPOLOGY, declared, NSLAVES);
        return 1;
    }
    ktap_print_msg("search order: %s first, %s last", roms[0].name,
                   roms[NSLAVES - 1].name);
    kt_run_cases(setup);
    /* as the w1 suite expects it, should a shell run both */
    write_str(MAX_PATH, "64\n");
    return ktap_finished();
}
