/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * patchbay-gcov: the guests' gcov streams (patchbay-run --gcov) turned into
 * line and function coverage of the code patchbay's suites exercise
 * (scripts/patchbay coverage, docs/coverage.md).
 *
 *   patchbay-gcov --objtree DIR --out DIR [--srctree DIR] [--gcov PROG]
 *                 [--gcovr PROG] STREAM...
 *
 * Each STREAM is one VM's bytes, as guest-tests/init/gcovsend.c sends them:
 *
 *   patchbay-gcov 1\n
 *   gcda <path> <size>\n<size bytes>      (any number of these)
 *   end <files>\n
 *
 * The guest is untrusted: an entry is kept only if its path ends with the
 * .gcda of one of the objects below (the kernel's object tree seen from the
 * guest's debugfs: the prefix is the build host's path, which we ignore),
 * and if its size is sane; its file name here is the object's, never the
 * guest's. Each kept .gcda goes beside a copy of the matching .gcno of the
 * object tree into --out/gcov-data/STREAM/, where the cross gcov reads them
 * (JSON); the counts of all streams are summed per source line.
 *
 * Writes into --out: summary.txt (the streams, each object's lines, the
 * functions of interest, the error-handling lines), functions.tsv (file,
 * function, lines, run, percent), unrun.txt (every line of those functions
 * that never ran, with its source when --srctree has it), error-paths.tsv
 * and error-unrun.txt (the same for the error-handling lines of
 * error_scope[], found by errlines.c in the --srctree source) and, with
 * --gcovr, index.html (gcovr's report of the summed counts).
 *
 * Exit codes: 0 done; 2 no usable stream, or gcov failed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "errlines.h"

#define STREAM_MAX   (64u << 20) /* a stream file we read (the runner: 32) */
#define GCDA_MAX     (4u << 20)  /* one .gcda (gcovsend.c's limit) */
#define HEAD_MAX     1024        /* one header line */
#define GCOV_OUT_MAX (64u << 20) /* gcov's JSON for one object */

/* The objects the gcov variant profiles (kernel-patches/variants/gcov). */
static const struct {
    const char *obj; /* below the object tree, without .o */
    const char *src; /* below the source tree */
} objects[] = {
    {"fs/open", "fs/open.c"},
    {"drivers/w1/w1_netlink", "drivers/w1/w1_netlink.c"},
    {"drivers/w1/w1", "drivers/w1/w1.c"},
    {"drivers/w1/w1_io", "drivers/w1/w1_io.c"},
    {"drivers/w1/w1_int", "drivers/w1/w1_int.c"},
    {"drivers/w1/masters/ds2490", "drivers/w1/masters/ds2490.c"},
    {"drivers/w1/slaves/w1_therm", "drivers/w1/slaves/w1_therm.c"},
    {"drivers/gpu/drm/msm/msm_drv", "drivers/gpu/drm/msm/msm_drv.c"},
    {"drivers/gpu/drm/msm/msm_gem_submit",
     "drivers/gpu/drm/msm/msm_gem_submit.c"},
    {"drivers/gpu/drm/msm/msm_submitqueue",
     "drivers/gpu/drm/msm/msm_submitqueue.c"},
    {"drivers/gpu/drm/msm/msm_gpu", "drivers/gpu/drm/msm/msm_gpu.c"},
    {"drivers/gpu/drm/msm/adreno/a2xx_gpu",
     "drivers/gpu/drm/msm/adreno/a2xx_gpu.c"},
};
#define N_OBJECTS G_N_ELEMENTS(objects)

/* The functions the suites' seeds aim at, as gcov names them. */
static const struct {
    const char *src, *fn;
} functions[] = {
    {"fs/open.c", "build_open_flags"},
    {"fs/open.c", "do_sys_openat2"},
    {"fs/open.c", "__do_sys_openat2"},
    {"drivers/w1/w1_netlink.c", "w1_cn_callback"},
    {"drivers/w1/w1_netlink.c", "w1_list_count_cmds"},
    {"drivers/w1/w1_netlink.c", "w1_process_cb"},
    {"drivers/w1/w1_netlink.c", "w1_process_command_root"},
    {"drivers/w1/w1_netlink.c", "w1_process_command_master"},
    {"drivers/w1/w1_netlink.c", "w1_process_command_slave"},
    {"drivers/w1/w1_netlink.c", "w1_netlink_send"},
    {"drivers/w1/w1_netlink.c", "w1_netlink_send_error"},
    {"drivers/w1/w1_netlink.c", "w1_reply_len"},
    {"drivers/w1/w1_netlink.c", "w1_unref_block"},
    {"drivers/w1/w1_netlink.c", "w1_reply_make_space"},
    {"drivers/w1/w1_netlink.c", "w1_netlink_check_send"},
    {"drivers/w1/w1_netlink.c", "w1_netlink_setup_msg"},
    {"drivers/w1/w1_netlink.c", "w1_netlink_queue_cmd"},
    {"drivers/w1/w1_netlink.c", "w1_netlink_queue_status"},
    {"drivers/gpu/drm/msm/msm_drv.c", "msm_ioctl_gem_new"},
    {"drivers/gpu/drm/msm/msm_drv.c", "msm_ioctl_gem_cpu_prep"},
    {"drivers/gpu/drm/msm/msm_drv.c", "msm_ioctl_gem_info"},
    {"drivers/gpu/drm/msm/msm_drv.c", "msm_ioctl_wait_fence"},
    {"drivers/gpu/drm/msm/msm_drv.c", "msm_ioctl_gem_madvise"},
    {"drivers/gpu/drm/msm/msm_drv.c", "msm_ioctl_submitqueue_new"},
    {"drivers/gpu/drm/msm/msm_gem_submit.c", "msm_ioctl_gem_submit"},
    {"drivers/gpu/drm/msm/msm_gem_submit.c", "submit_lookup_objects"},
    {"drivers/gpu/drm/msm/msm_gem_submit.c", "submit_lookup_cmds"},
    {"drivers/gpu/drm/msm/msm_submitqueue.c", "msm_submitqueue_create"},
};

/*
 * The error-handling lines measured (error-paths.tsv, docs/coverage.md):
 * per group, a source and a function of it (NULL: all of the file's).
 * The w1 core's are those between the DS2490's operations and their users:
 * the I/O layer (w1_io.c), the master's add and removal (w1_int.c, which
 * ds_probe() and ds_disconnect() call), the search callback and slave
 * attach, the master thread, the sysfs rw file and the netlink commands
 * that do I/O.
 * whole: every line of the function counts, not only the ones errlines
 * finds: a recovery function is error handling from its first line.
 */
static const struct {
    const char *group, *src, *fn;
    gboolean whole;
} error_scope[] = {
    {"ds2490", "drivers/w1/masters/ds2490.c", NULL, FALSE},
    {"w1 core", "drivers/w1/w1_io.c", NULL, FALSE},
    {"w1 core", "drivers/w1/w1_int.c", NULL, FALSE},
    {"w1 core", "drivers/w1/w1.c", "rw_write", FALSE},
    {"w1 core", "drivers/w1/w1.c", "rw_read", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_family_notify", FALSE},
    {"w1 core", "drivers/w1/w1.c", "__w1_attach_slave_device", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_attach_slave_device", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_unref_slave", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_slave_detach", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_addr_crc_is_valid", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_slave_found", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_search_process_cb", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_search_process", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_process_callbacks", FALSE},
    {"w1 core", "drivers/w1/w1.c", "w1_process", FALSE},
    {"w1 core", "drivers/w1/w1_netlink.c", "w1_send_slave", FALSE},
    {"w1 core", "drivers/w1/w1_netlink.c", "w1_found_send_slave", FALSE},
    {"w1 core", "drivers/w1/w1_netlink.c", "w1_get_slaves", FALSE},
    {"w1 core", "drivers/w1/w1_netlink.c", "w1_process_command_io", FALSE},
    {"w1 core", "drivers/w1/w1_netlink.c", "w1_process_command_addremove",
     FALSE},
    {"w1 core", "drivers/w1/w1_netlink.c", "w1_process_command_master", FALSE},
    {"w1 core", "drivers/w1/w1_netlink.c", "w1_process_command_slave", FALSE},
    {"w1 core", "drivers/w1/w1_netlink.c", "w1_process_cb", FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "reset_select_slave",
     FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "w1_poll_completion",
     FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "convert_t", FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "read_scratchpad", FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "read_powermode", FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "w1_slave_show", FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "temperature_show",
     FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "ext_power_show", FALSE},
    {"w1_therm read", "drivers/w1/slaves/w1_therm.c", "w1_read_temp", FALSE},
    {"a2xx recovery", "drivers/gpu/drm/msm/adreno/a2xx_gpu.c", "a2xx_recover",
     TRUE},
    {"a2xx recovery", "drivers/gpu/drm/msm/adreno/a2xx_gpu.c", "a2xx_idle",
     FALSE},
    {"a2xx recovery", "drivers/gpu/drm/msm/adreno/a2xx_gpu.c", "a2xx_irq",
     FALSE},
    {"a2xx recovery", "drivers/gpu/drm/msm/msm_gpu.c", "recover_worker", TRUE},
    {"a2xx recovery", "drivers/gpu/drm/msm/msm_gpu.c", "hangcheck_handler",
     FALSE},
};

/* One source line, summed over the streams. */
typedef struct {
    int src; /* index in objects[] */
    gint64 line;
    guint64 count;
} Line;

typedef struct {
    char *name; /* the stream file's base name */
    guint64 bytes;
    guint kept, refused;
    gboolean have[N_OBJECTS];
    char *problem; /* NULL when the stream ended as it should */
    gboolean cut;  /* patchbay-run kept only its head */
} Stream;

typedef struct {
    char *objtree, *srctree, *out, *gcov, *gcovr;
    GPtrArray *streams;  /* Stream * */
    GHashTable *lines;   /* "src:line" -> Line * */
    GHashTable *ranges;  /* "src:function" -> gint64[2], gcov's lines */
    GPtrArray *datadirs; /* per stream, for gcovr */
} Cov;

static void stream_free(gpointer data)
{
    Stream *s = data;

    g_free(s->name);
    g_free(s->problem);
    g_free(s);
}

/* The object whose .gcda path ends the guest's path, or -1. */
static int object_of(const char *path)
{
    size_t plen = strlen(path);

    for (guint i = 0; i < N_OBJECTS; i++) {
        g_autofree char *want = g_strconcat(objects[i].obj, ".gcda", NULL);
        size_t wlen = strlen(want);

        if (plen >= wlen && strcmp(path + plen - wlen, want) == 0 &&
            (plen == wlen || path[plen - wlen - 1] == '/')) {
            return i;
        }
    }
    return -1;
}

/* The object whose source a gcov file name ("../fs/open.c") is, or -1. */
static int source_of(const char *file)
{
    size_t flen = strlen(file);

    for (guint i = 0; i < N_OBJECTS; i++) {
        size_t slen = strlen(objects[i].src);

        if (flen >= slen && strcmp(file + flen - slen, objects[i].src) == 0 &&
            (flen == slen || file[flen - slen - 1] == '/')) {
            return i;
        }
    }
    return -1;
}

static gboolean copy_file(const char *from, const char *to, GError **error)
{
    g_autoptr(GFile) src = g_file_new_for_path(from);
    g_autoptr(GFile) dst = g_file_new_for_path(to);

    return g_file_copy(src, dst, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL,
                       error);
}

/* Keep one entry: its bytes as DIR/OBJ.gcda, the object tree's .gcno
 * beside. */
static void keep_entry(Cov *c, Stream *s, const char *dir, int obj,
                       const char *data, gsize size)
{
    g_autofree char *gcda =
        g_strconcat(dir, "/", objects[obj].obj, ".gcda", NULL);
    g_autofree char *gcno =
        g_strconcat(dir, "/", objects[obj].obj, ".gcno", NULL);
    g_autofree char *from =
        g_strconcat(c->objtree, "/", objects[obj].obj, ".gcno", NULL);
    g_autofree char *parent = g_path_get_dirname(gcda);
    g_autoptr(GError) error = NULL;

    if (s->have[obj]) {
        s->refused++; /* a second copy of one object */
        return;
    }
    if (g_mkdir_with_parents(parent, 0755) < 0 ||
        !g_file_set_contents(gcda, data, size, &error) ||
        !copy_file(from, gcno, &error)) {
        g_printerr("patchbay-gcov: %s: %s\n", s->name,
                   error ? error->message : g_strerror(errno));
        s->refused++;
        return;
    }
    s->have[obj] = TRUE;
    s->kept++;
}

/* Parse one stream's bytes; entries go into dir. Sets s->problem if the
 * stream does not end as it should (the entries before stay). */
static void parse_stream(Cov *c, Stream *s, const char *dir, const char *p,
                         gsize len)
{
    static const char magic[] = "patchbay-gcov 1\n";
    gsize pos = strlen(magic);

    if (len < pos || memcmp(p, magic, pos) != 0) {
        s->problem = g_strdup("no \"patchbay-gcov 1\" header (a kernel "
                              "without gcov, or no data sent)");
        return;
    }
    for (;;) {
        const char *nl = memchr(p + pos, '\n', MIN(len - pos, HEAD_MAX));
        g_autofree char *head = NULL;
        g_auto(GStrv) f = NULL;
        guint64 size;
        char *end;

        if (!nl) {
            s->problem = g_strdup_printf("cut at byte %" G_GSIZE_FORMAT
                                         ": no complete header line",
                                         pos);
            return;
        }
        head = g_strndup(p + pos, nl - (p + pos));
        pos = nl - p + 1;
        f = g_strsplit(head, " ", 0);
        if (g_strv_length(f) == 2 && strcmp(f[0], "end") == 0) {
            return;
        }
        if (g_strv_length(f) != 3 || strcmp(f[0], "gcda") != 0) {
            s->problem = g_strdup("a malformed header line");
            return;
        }
        size = g_ascii_strtoull(f[2], &end, 10);
        if (*end || end == f[2] || size > GCDA_MAX) {
            s->problem = g_strdup("an entry of an insane size");
            return;
        }
        if (size > len - pos) {
            s->problem = g_strdup("cut inside an entry");
            return;
        }
        {
            int obj = object_of(f[1]);

            if (obj < 0) {
                s->refused++;
            } else {
                keep_entry(c, s, dir, obj, p + pos, size);
            }
        }
        pos += size;
    }
}

/*
 * gcov's JSON of one .gcda into the sums. gcov parses the guest's bytes,
 * but only for counter values: what it reports (files, functions, lines,
 * so the size of its output) comes from our .gcno, and it refuses a .gcda
 * whose stamp is not the .gcno's. A .gcda it refuses (exit status not 0)
 * is that stream's problem (*why), not the run's.
 * 1: counted; 0: refused (*why says why); -1: gcov could not run at all.
 */
static int add_gcov_json(Cov *c, const char *dir, int obj, char **why)
{
    g_autofree char *gcda = g_strconcat(objects[obj].obj, ".gcda", NULL);
    const char *argv[] = {c->gcov, "--json-format", "--stdout", gcda, NULL};
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root;
    JsonArray *files;
    int status;

    if (!g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                      &out, &err, &status, &error)) {
        g_printerr("patchbay-gcov: cannot run %s: %s\n", c->gcov,
                   error->message);
        return -1;
    }
    if (!g_spawn_check_wait_status(status, &error)) {
        g_autofree char *first = g_strndup(err, strcspn(err, "\n"));

        g_free(*why);
        *why = g_strdup_printf("gcov refused %s: %s", gcda,
                               *first ? first : error->message);
        return 0;
    }
    if (strlen(out) > GCOV_OUT_MAX ||
        !json_parser_load_from_data(parser, out, -1, &error)) {
        g_free(*why);
        *why = g_strdup_printf("gcov gave no JSON for %s: %s", gcda,
                               error ? error->message : "too big");
        return 0;
    }
    root = json_parser_get_root(parser);
    if (!JSON_NODE_HOLDS_OBJECT(root) ||
        !json_object_has_member(json_node_get_object(root), "files")) {
        g_free(*why);
        *why = g_strdup_printf("gcov's JSON for %s has no files", gcda);
        return 0;
    }
    files = json_object_get_array_member(json_node_get_object(root), "files");
    for (guint i = 0; i < json_array_get_length(files); i++) {
        JsonObject *file = json_array_get_object_element(files, i);
        const char *name =
            json_object_get_string_member_with_default(file, "file", "");
        JsonArray *lines;
        int src = source_of(name);

        /* the object's own source, not the headers it inlines */
        if (src != obj || !json_object_has_member(file, "lines")) {
            continue;
        }
        if (json_object_has_member(file, "functions")) {
            JsonArray *fns = json_object_get_array_member(file, "functions");

            for (guint j = 0; j < json_array_get_length(fns); j++) {
                JsonObject *fn = json_array_get_object_element(fns, j);
                g_autofree char *key = g_strdup_printf(
                    "%d:%s", src,
                    json_object_get_string_member_with_default(fn, "name", ""));
                gint64 *range = g_new(gint64, 2);

                range[0] = json_object_get_int_member_with_default(
                    fn, "start_line", 0);
                range[1] =
                    json_object_get_int_member_with_default(fn, "end_line", 0);
                g_hash_table_replace(c->ranges, g_steal_pointer(&key), range);
            }
        }
        lines = json_object_get_array_member(file, "lines");
        for (guint j = 0; j < json_array_get_length(lines); j++) {
            JsonObject *l = json_array_get_object_element(lines, j);
            gint64 number =
                json_object_get_int_member_with_default(l, "line_number", 0);
            gint64 count =
                json_object_get_int_member_with_default(l, "count", 0);
            g_autofree char *key =
                g_strdup_printf("%d:%" G_GINT64_FORMAT, src, number);
            Line *sum = g_hash_table_lookup(c->lines, key);

            if (!sum) {
                sum = g_new0(Line, 1);
                sum->src = src;
                sum->line = number;
                g_hash_table_insert(c->lines, g_steal_pointer(&key), sum);
            }
            /* the guest's numbers: saturate, never wrap to "not run" */
            count = MAX(count, 0);
            sum->count = (guint64)count > G_MAXUINT64 - sum->count
                             ? G_MAXUINT64
                             : sum->count + count;
        }
    }
    return 1;
}

/* One stream into the sums; FALSE only if gcov could not run at all (a
 * stream's own trouble is its problem, in summary.txt). */
static gboolean read_stream(Cov *c, const char *path)
{
    Stream *s = g_new0(Stream, 1);
    g_autofree char *base = g_path_get_basename(path);
    g_autofree char *cut = g_strconcat(path, ".cut", NULL);
    g_autofree char *dir = NULL;
    g_autofree char *data = NULL;
    g_autoptr(GError) error = NULL;
    GStatBuf st;
    gsize len;

    /* the stream's label: the runner's FILE.VM, ours to name */
    g_strcanon(base,
               "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
               "0123456789._-+",
               '_');
    s->name = g_strdup(base);
    s->cut = g_file_test(cut, G_FILE_TEST_EXISTS);
    g_ptr_array_add(c->streams, s);
    if (g_stat(path, &st) < 0 || st.st_size > STREAM_MAX) {
        s->problem = g_strdup_printf("unreadable or over %u bytes", STREAM_MAX);
        return TRUE;
    }
    if (!g_file_get_contents(path, &data, &len, &error)) {
        s->problem = g_strdup(error->message);
        return TRUE;
    }
    s->bytes = len;
    dir =
        g_strdup_printf("%s/gcov-data/%u-%s", c->out, c->streams->len, s->name);
    if (g_mkdir_with_parents(dir, 0755) < 0) {
        s->problem = g_strdup_printf("mkdir %s: %s", dir, g_strerror(errno));
        return TRUE;
    }
    parse_stream(c, s, dir, data, len);
    for (guint i = 0; i < N_OBJECTS; i++) {
        int used = s->have[i] ? add_gcov_json(c, dir, i, &s->problem) : 1;

        if (used < 0) {
            return FALSE;
        }
        if (used == 0) {
            /* out of the data folder, so that gcovr does not meet it */
            g_autofree char *gcda =
                g_strconcat(dir, "/", objects[i].obj, ".gcda", NULL);

            g_unlink(gcda);
            s->have[i] = FALSE;
            s->kept--;
            s->refused++;
        }
    }
    if (s->kept) {
        g_ptr_array_add(c->datadirs, g_steal_pointer(&dir));
    }
    return TRUE;
}

static gint by_line(gconstpointer a, gconstpointer b)
{
    const Line *x = *(Line *const *)a, *y = *(Line *const *)b;

    if (x->src != y->src) {
        return x->src - y->src;
    }
    return (x->line > y->line) - (x->line < y->line);
}

/*
 * The lines of function fn of source src: gcov's record of it, else (a
 * small static function that GCC inlined before it instrumented the code,
 * w1_reply_len say: its lines count where it was inlined) its definition in
 * the source, from the line that names it to the first "}" of column one.
 * FALSE if neither knows it.
 */
static gboolean function_range(Cov *c, int src, const char *fn, char **text,
                               gint64 *first, gint64 *last)
{
    g_autofree char *key = g_strdup_printf("%d:%s", src, fn);
    gint64 *range = g_hash_table_lookup(c->ranges, key);
    g_autofree char *call = g_strconcat(fn, "(", NULL);

    if (range && range[0] > 0 && range[1] >= range[0]) {
        *first = range[0];
        *last = range[1];
        return TRUE;
    }
    for (guint i = 0; text && text[i]; i++) {
        const char *at = strstr(text[i], call);
        size_t len = strlen(text[i]);

        /* a definition: at column one, the name whole, no ";" at its end */
        if (!at || text[i][0] == ' ' || text[i][0] == '\t' ||
            text[i][0] == '#' ||
            (at > text[i] && (g_ascii_isalnum(at[-1]) || at[-1] == '_')) ||
            (len && text[i][len - 1] == ';')) {
            continue;
        }
        for (guint j = i + 1; text[j]; j++) {
            if (strcmp(text[j], "}") == 0) {
                *first = i + 1;
                *last = j + 1;
                return TRUE;
            }
        }
    }
    return FALSE;
}

/* The source's lines, when --srctree has it (for unrun.txt). */
static char **source_lines(Cov *c, int src)
{
    g_autofree char *path = NULL;
    g_autofree char *text = NULL;

    if (!c->srctree) {
        return NULL;
    }
    path = g_build_filename(c->srctree, objects[src].src, NULL);
    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        return NULL;
    }
    return g_strsplit(text, "\n", -1);
}

/* Error-handling lines of a function, a file, a group: all, and those
 * that are not in the body of a failed allocation's test (na). */
typedef struct {
    guint lines, run, lines_na, run_na;
} Tally;

static void tally(Tally *t, gboolean ran, guint8 why)
{
    t->lines++;
    t->run += ran;
    if (!(why & ERRLINE_ALLOC)) {
        t->lines_na++;
        t->run_na += ran;
    }
}

static double pct(guint run, guint lines)
{
    return lines ? 100.0 * run / lines : 0.0;
}

static void tally_row(GString *s, const char *what, const char *group,
                      const Tally *t)
{
    g_string_append_printf(s,
                           "  %-40s %-14s %4u %4u %6.1f%%   %4u %4u %6.1f%%\n",
                           what, group, t->lines, t->run, pct(t->run, t->lines),
                           t->lines_na, t->run_na, pct(t->run_na, t->lines_na));
}

/* The error_scope[] entry of function fn of src, or -1. */
static int scope_of(const char *src, const char *fn)
{
    for (guint i = 0; i < G_N_ELEMENTS(error_scope); i++) {
        if (strcmp(error_scope[i].src, src) == 0 &&
            (!error_scope[i].fn || strcmp(error_scope[i].fn, fn) == 0)) {
            return i;
        }
    }
    return -1;
}

/*
 * error-paths.tsv (file, function, error lines, run, percent, group; a
 * file's total as function "*"), error-unrun.txt (file:line, function,
 * why, source) and a table in summary. An error-handling line is a line
 * errlines finds in the source that gcov has a count for (a line with
 * code), in a function of error_scope[].
 */
static void write_error_paths(Cov *c, GString *summary)
{
    g_autoptr(GString) tsv =
        g_string_new("file\tfunction\terror_lines\trun\tpercent\tgroup\n");
    g_autoptr(GString) unrun = g_string_new(NULL);
    g_autoptr(GString) table = g_string_new(NULL);
    g_autoptr(GPtrArray) groups = g_ptr_array_new(); /* names, in order */
    Tally group_t[G_N_ELEMENTS(error_scope)] = {{0}}, total = {0};
    g_autofree char *path = NULL;

    for (guint i = 0; i < G_N_ELEMENTS(error_scope); i++) {
        if (!g_ptr_array_find_with_equal_func(groups, error_scope[i].group,
                                              g_str_equal, NULL)) {
            g_ptr_array_add(groups, (char *)error_scope[i].group);
        }
    }
    for (guint i = 0; i < G_N_ELEMENTS(error_scope); i++) {
        const char *src = error_scope[i].src;
        int obj = source_of(src);
        g_autofree char *file = NULL;
        g_autofree char *text = NULL;
        g_auto(GStrv) lines = NULL;
        g_autoptr(ErrLines) e = NULL;
        g_autoptr(GPtrArray) fns = g_ptr_array_new(); /* in source order */
        g_autoptr(GHashTable) fn_t =
            g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
        Tally file_t = {0};
        guint g = 0;

        if (i > 0 && strcmp(error_scope[i - 1].src, src) == 0) {
            continue; /* one pass per source: its entries are adjacent */
        }
        file = c->srctree ? g_build_filename(c->srctree, src, NULL) : NULL;
        if (obj < 0 || !file || !g_file_get_contents(file, &text, NULL, NULL)) {
            g_string_append_printf(table, "  %-40s no source (--srctree)\n",
                                   src);
            continue;
        }
        g_ptr_array_find_with_equal_func(groups, error_scope[i].group,
                                         g_str_equal, &g);
        e = errlines_classify(text);
        lines = g_strsplit(text, "\n", -1);
        for (guint l = 1; l <= e->n_lines; l++) {
            const char *fn = e->function[l];
            int k = fn ? scope_of(src, fn) : -1;
            g_autofree char *key = NULL;
            g_autofree char *why = NULL;
            Line *count;
            Tally *t;

            if (k < 0 || (!e->why[l] && !error_scope[k].whole)) {
                continue;
            }
            key = g_strdup_printf("%d:%u", obj, l);
            count = g_hash_table_lookup(c->lines, key);
            if (!count) {
                continue; /* no code on this line: gcov has no count */
            }
            t = g_hash_table_lookup(fn_t, fn);
            if (!t) {
                t = g_new0(Tally, 1);
                g_hash_table_insert(fn_t, (char *)fn, t);
                g_ptr_array_add(fns, (char *)fn);
            }
            tally(t, count->count > 0, e->why[l]);
            tally(&file_t, count->count > 0, e->why[l]);
            tally(&group_t[g], count->count > 0, e->why[l]);
            tally(&total, count->count > 0, e->why[l]);
            if (count->count) {
                continue;
            }
            why =
                e->why[l] ? errlines_describe(e->why[l]) : g_strdup("recovery");
            g_string_append_printf(
                unrun, "%s:%u\t%s\t%s\t%s\n", src, l, fn, why,
                l <= g_strv_length(lines) ? g_strstrip(lines[l - 1]) : "");
        }
        for (guint f = 0; f < fns->len; f++) {
            const char *fn = g_ptr_array_index(fns, f);
            Tally *t = g_hash_table_lookup(fn_t, fn);

            g_string_append_printf(tsv, "%s\t%s\t%u\t%u\t%.1f\t%s\n", src, fn,
                                   t->lines, t->run, pct(t->run, t->lines),
                                   error_scope[scope_of(src, fn)].group);
        }
        g_string_append_printf(
            tsv, "%s\t*\t%u\t%u\t%.1f\t%s\n", src, file_t.lines, file_t.run,
            pct(file_t.run, file_t.lines), error_scope[i].group);
        tally_row(table, src, error_scope[i].group, &file_t);
    }
    for (guint g = 0; g < groups->len; g++) {
        tally_row(table, "", g_ptr_array_index(groups, g), &group_t[g]);
    }
    tally_row(table, "", "all", &total);
    g_string_append_printf(summary,
                           "\nerror-handling lines (docs/coverage.md): lines, "
                           "run, percent; the same without allocation "
                           "failures:\n%s",
                           table->str);
    path = g_build_filename(c->out, "error-paths.tsv", NULL);
    g_file_set_contents(path, tsv->str, tsv->len, NULL);
    g_free(path);
    path = g_build_filename(c->out, "error-unrun.txt", NULL);
    g_file_set_contents(path, unrun->str, unrun->len, NULL);
}

static int write_reports(Cov *c)
{
    g_autoptr(GPtrArray) all = g_ptr_array_new();
    g_autoptr(GString) summary = g_string_new(NULL);
    g_autoptr(GString) tsv =
        g_string_new("file\tfunction\tlines\trun\tpercent\n");
    g_autoptr(GString) unrun = g_string_new(NULL);
    g_autofree char *path = NULL;
    guint64 obj_lines[N_OBJECTS] = {0}, obj_run[N_OBJECTS] = {0};
    gboolean any = FALSE;
    GHashTableIter iter;
    gpointer value;

    g_hash_table_iter_init(&iter, c->lines);
    while (g_hash_table_iter_next(&iter, NULL, &value)) {
        g_ptr_array_add(all, value);
    }
    g_ptr_array_sort(all, by_line);
    g_string_append(summary, "patchbay coverage: the gcov variant's counters, "
                             "summed over every VM\n\nstreams:\n");
    for (guint i = 0; i < c->streams->len; i++) {
        Stream *s = g_ptr_array_index(c->streams, i);

        g_string_append_printf(summary,
                               "  %-16s %8" G_GUINT64_FORMAT
                               " bytes, %u .gcda kept, %u refused%s%s%s\n",
                               s->name, s->bytes, s->kept, s->refused,
                               s->cut ? "; CUT by patchbay-run" : "",
                               s->problem ? "; " : "",
                               s->problem ? s->problem : "");
        any |= s->kept > 0;
    }
    for (guint i = 0; i < all->len; i++) {
        Line *l = g_ptr_array_index(all, i);

        obj_lines[l->src]++;
        obj_run[l->src] += l->count > 0;
    }
    g_string_append(summary, "\nobjects (lines, run, percent):\n");
    for (guint i = 0; i < N_OBJECTS; i++) {
        g_string_append_printf(
            summary,
            "  %-40s %5" G_GUINT64_FORMAT " %5" G_GUINT64_FORMAT " %6.1f%%\n",
            objects[i].src, obj_lines[i], obj_run[i],
            obj_lines[i] ? 100.0 * obj_run[i] / obj_lines[i] : 0.0);
    }
    g_string_append(summary, "\nfunctions of interest (lines, run, "
                             "percent):\n");
    for (guint f = 0; f < G_N_ELEMENTS(functions); f++) {
        int src = source_of(functions[f].src);
        g_auto(GStrv) text = source_lines(c, src);
        guint text_len = text ? g_strv_length(text) : 0;
        guint n = 0, run = 0;
        gint64 first = 0, last = -1;
        double pct;

        function_range(c, src, functions[f].fn, text, &first, &last);
        for (guint i = 0; i < all->len; i++) {
            Line *l = g_ptr_array_index(all, i);

            if (l->src != src || l->line < first || l->line > last) {
                continue;
            }
            n++;
            if (l->count) {
                run++;
                continue;
            }
            g_string_append_printf(unrun, "%s:%" G_GINT64_FORMAT "\t%s\t%s\n",
                                   functions[f].src, l->line, functions[f].fn,
                                   l->line >= 1 && l->line <= text_len
                                       ? g_strstrip(text[l->line - 1])
                                       : "");
        }
        pct = n ? 100.0 * run / n : 0.0;
        g_string_append_printf(tsv, "%s\t%s\t%u\t%u\t%.1f\n", functions[f].src,
                               functions[f].fn, n, run, pct);
        g_string_append_printf(summary, "  %-38s %-28s %4u %4u %6.1f%%%s\n",
                               functions[f].src, functions[f].fn, n, run, pct,
                               n ? "" : "  (no lines: not in the data)");
    }
    write_error_paths(c, summary);
    path = g_build_filename(c->out, "summary.txt", NULL);
    g_file_set_contents(path, summary->str, summary->len, NULL);
    g_free(path);
    path = g_build_filename(c->out, "functions.tsv", NULL);
    g_file_set_contents(path, tsv->str, tsv->len, NULL);
    g_free(path);
    path = g_build_filename(c->out, "unrun.txt", NULL);
    g_file_set_contents(path, unrun->str, unrun->len, NULL);
    fputs(summary->str, stdout);
    return any ? 0 : 2;
}

/* gcovr's HTML of the summed counts: one JSON per stream, then added. */
static void run_gcovr(Cov *c)
{
    g_autoptr(GPtrArray) add = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *html = g_build_filename(c->out, "index.html", NULL);
    g_autoptr(GPtrArray) filters = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *root = g_regex_escape_string(c->srctree, -1);
    int status;

    if (!c->datadirs->len) {
        return;
    }
    /* the ten sources, not the headers they inline: absolute regexes
     * (gcovr takes any other as relative to its working directory) */
    for (guint o = 0; o < N_OBJECTS; o++) {
        g_autofree char *quoted = g_regex_escape_string(objects[o].src, -1);

        g_ptr_array_add(filters, g_strdup_printf("%s/%s$", root, quoted));
    }
    g_ptr_array_add(add, g_strdup(c->gcovr));
    for (guint i = 0; i < c->datadirs->len; i++) {
        const char *dir = g_ptr_array_index(c->datadirs, i);
        g_autofree char *json = g_strconcat(dir, ".gcovr.json", NULL);
        g_autoptr(GPtrArray) argv = g_ptr_array_new();
        g_autoptr(GError) error = NULL;

        g_ptr_array_add(argv, c->gcovr);
        g_ptr_array_add(argv, "--gcov-executable");
        g_ptr_array_add(argv, c->gcov);
        g_ptr_array_add(argv, "--root");
        g_ptr_array_add(argv, c->srctree);
        g_ptr_array_add(argv, "--object-directory");
        g_ptr_array_add(argv, c->objtree);
        for (guint o = 0; o < N_OBJECTS; o++) {
            g_ptr_array_add(argv, "--filter");
            g_ptr_array_add(argv, g_ptr_array_index(filters, o));
        }
        g_ptr_array_add(argv, "--json");
        g_ptr_array_add(argv, json);
        g_ptr_array_add(argv, (char *)dir);
        g_ptr_array_add(argv, NULL);
        if (!g_spawn_sync(NULL, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH,
                          NULL, NULL, NULL, NULL, &status, &error) ||
            !g_spawn_check_wait_status(status, &error)) {
            g_printerr("patchbay-gcov: gcovr on %s failed: %s\n", dir,
                       error->message);
            return;
        }
        g_ptr_array_add(add, g_strdup("--add-tracefile"));
        g_ptr_array_add(add, g_steal_pointer(&json));
    }
    g_ptr_array_add(add, g_strdup("--root"));
    g_ptr_array_add(add, g_strdup(c->srctree));
    g_ptr_array_add(add, g_strdup("--html-details"));
    g_ptr_array_add(add, g_strdup(html));
    g_ptr_array_add(add, NULL);
    {
        g_autoptr(GError) error = NULL;

        if (!g_spawn_sync(NULL, (char **)add->pdata, NULL, G_SPAWN_SEARCH_PATH,
                          NULL, NULL, NULL, NULL, &status, &error) ||
            !g_spawn_check_wait_status(status, &error)) {
            g_printerr("patchbay-gcov: gcovr --html-details failed: %s\n",
                       error->message);
        }
    }
}

int main(int argc, char **argv)
{
    Cov c = {.gcov = g_strdup("aarch64-linux-gnu-gcov")};
    g_autoptr(GError) error = NULL;
    g_auto(GStrv) paths = NULL;
    GOptionEntry entries[] = {
        {"objtree", 0, 0, G_OPTION_ARG_FILENAME, &c.objtree,
         "the gcov kernel's object tree (its .gcno files)", "DIR"},
        {"srctree", 0, 0, G_OPTION_ARG_FILENAME, &c.srctree,
         "its source tree (for unrun.txt and gcovr)", "DIR"},
        {"out", 0, 0, G_OPTION_ARG_FILENAME, &c.out,
         "folder for summary.txt, functions.tsv, unrun.txt, index.html", "DIR"},
        {"gcov", 0, 0, G_OPTION_ARG_FILENAME, &c.gcov,
         "the cross gcov (aarch64-linux-gnu-gcov)", "PROG"},
        {"gcovr", 0, 0, G_OPTION_ARG_FILENAME, &c.gcovr,
         "gcovr, for an HTML report (needs --srctree)", "PROG"},
        {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &paths, NULL,
         "STREAM..."},
        {NULL},
    };
    g_autoptr(GOptionContext) ctx =
        g_option_context_new("- line coverage from the guests' gcov streams");
    int code;

    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
        g_printerr("patchbay-gcov: %s\n", error->message);
        return 2;
    }
    if (!c.objtree || !c.out || !paths || !paths[0]) {
        g_printerr("patchbay-gcov: --objtree, --out and a STREAM are "
                   "required\n");
        return 2;
    }
    if (g_mkdir_with_parents(c.out, 0755) < 0) {
        g_printerr("patchbay-gcov: cannot create %s: %s\n", c.out,
                   g_strerror(errno));
        return 2;
    }
    c.streams = g_ptr_array_new_with_free_func(stream_free);
    c.datadirs = g_ptr_array_new_with_free_func(g_free);
    c.lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    c.ranges = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    for (char **p = paths; *p; p++) {
        gboolean gcov_ran = read_stream(&c, *p);
        Stream *s = g_ptr_array_index(c.streams, c.streams->len - 1);

        if (s->problem) {
            g_printerr("patchbay-gcov: %s: %s\n", *p, s->problem);
        }
        if (!gcov_ran) {
            return 2; /* said why */
        }
    }
    code = write_reports(&c);
    if (c.gcovr && c.srctree) {
        run_gcovr(&c);
    }
    g_ptr_array_unref(c.streams);
    g_ptr_array_unref(c.datadirs);
    g_hash_table_unref(c.lines);
    g_hash_table_unref(c.ranges);
    return code;
}
