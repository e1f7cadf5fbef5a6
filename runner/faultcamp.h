/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultcamp: the host side of a fault campaign (patchbay-faults,
 * docs/hostile-hardware.md "Campaigns"), without running anything: what a
 * campaign VM's console and summary.json say (the episodes, the findings
 * the guest printed, the kernel's crash reports), a finding's signature
 * from its report, the findings deduplicated by signature, findings.json,
 * the table and the exit status.
 *
 * The guest program (guest-tests/faults/episode.h) prints one KTAP result
 * "seed S" per episode and "# faultcamp ..." lines; the runner's crash
 * scanner pins every kernel report on the test that was running, by name
 * or, when the VM died before its result, as "#N".
 *
 * A signature is, as syzbot makes it, the report's title without what
 * changes from run to run (addresses, offsets, PIDs) and the first
 * meaningful frames of its call trace, the generic ones (the report's own
 * machinery, WARN's trap, lock and scheduler helpers) skipped.
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Frames a signature keeps. */
#define FC_SIGNATURE_FRAMES 3

typedef struct {
    guint64 seed;    /* 0: before any episode (boot, setup) */
    char *kind;      /* a crash kind ("kasan", "warn", ...) or the guest's */
    char *title;     /* normalised */
    char **frames;   /* the meaningful frames, at most FC_SIGNATURE_FRAMES */
    char *signature; /* title, then " | " and the frames joined by " < " */
    char *report;    /* the excerpt, or the guest's line */
} FcFinding;

void fc_finding_free(FcFinding *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FcFinding, fc_finding_free)

/* "[   1.234] WARNING: CPU: 0 PID: 7 at f.c:3 fn+0x1/0x2" -> "WARNING in fn" */
char *fc_report_title(const char *first_line);

/* The meaningful frames of a report excerpt (g_strfreev), at most max. */
char **fc_report_frames(const char *excerpt, guint max);

/* A finding of a kernel report (kind and excerpt of the crash scanner). */
FcFinding *fc_finding_from_report(guint64 seed, const char *kind,
                                  const char *excerpt);

/* A finding the guest printed: kind, op and detail of its finding line. */
FcFinding *fc_finding_from_guest(guint64 seed, const char *kind,
                                 const char *op, const char *detail);

/* What one campaign VM did. */
typedef struct {
    guint64 first_seed;
    char *rates;        /* "# faultcamp rates:", or NULL */
    char *setup_failed; /* why the guest program could not start, or NULL */
    guint episodes;     /* results */
    guint64 last_seed;  /* the last seed with a result or a finding, or 0 */
    GPtrArray *findings; /* FcFinding *, at most one per seed: the first */
    GArray *faults;      /* guint: faults injected, per episode with counts */
} FcVm;

void fc_vm_free(FcVm *vm);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FcVm, fc_vm_free)

/*
 * Read a VM's console lines and the "crashes" of its summary.json (NULL
 * when there is none). The kernel's report on a seed wins over what the
 * guest printed for it (a hang, a failed check that follows from it).
 */
FcVm *fc_vm_parse(guint64 first_seed, const char *const *lines,
                  JsonArray *crashes);

/* The same from a VM's result folder (console.log, summary.json). */
FcVm *fc_vm_load(guint64 first_seed, const char *dir, GError **error);

/* One signature: the seeds that found it. */
typedef struct {
    char *signature, *title, *kind;
    char **frames;
    char *report;   /* the first seed's */
    GArray *seeds;  /* guint64, in the order found */
    guint64 vm_first; /* the first seed of the VM that found seeds[0] */
    char *plan;     /* the first seed's plan: "seed=S,<rates>" */
    char *recording; /* the reproduction's folder, or NULL */
    int reproduced;  /* -1 not tried, 0 no, 1 the same signature again */
    int replayed;    /* -1 not tried, 0 no, 1 the replay was the recording */
    char *repro_note; /* why not, or NULL */
} FcGroup;

typedef struct {
    char *device;
    guint64 first_seed;
    guint seeds;       /* asked for */
    guint episodes;    /* done */
    guint vms;
    double elapsed_s;
    char *rates;
    GPtrArray *groups; /* FcGroup *, in the order first found */
    GHashTable *by_signature;
    GArray *histogram; /* guint: episodes with 0, 1, 2, ... faults */
} FcCampaign;

FcCampaign *fc_campaign_new(const char *device, guint64 first_seed,
                            guint seeds);
void fc_campaign_free(FcCampaign *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FcCampaign, fc_campaign_free)

/* Count a VM's episodes and add its findings. */
void fc_campaign_add_vm(FcCampaign *c, const FcVm *vm);

/* The seed the next VM starts from, after vm; 0 when vm made no progress. */
guint64 fc_vm_next_seed(const FcVm *vm);

/* "seed=S,<rates>", the plan of one seed (g_free). */
char *fc_plan(guint64 seed, const char *rates);

/* Findings (signatures) so far. */
guint fc_campaign_findings(const FcCampaign *c);

double fc_campaign_rate(const FcCampaign *c); /* episodes per minute */

gboolean fc_campaign_write_json(const FcCampaign *c, const char *path,
                                GError **error);

/* The human table (g_free). */
char *fc_campaign_format(const FcCampaign *c);

/* 0 no finding, 1 findings. */
int fc_campaign_exit_status(const FcCampaign *c);

G_END_DECLS
