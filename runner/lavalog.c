/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lavalog: read a LAVA job log with libyaml, one line (one YAML document)
 * at a time.  See lavalog.h.
 */
#include <string.h>

#include <gio/gio.h>
#include <yaml.h>

#include "lavalog.h"

#define READ_CHUNK (64 * 1024)
/*
 * libyaml's scanner checks every open flow level at each token, so deep
 * nesting costs O(length * depth): stop well before that hurts.  LAVA's
 * records nest 3 deep.
 */
#define MAX_NESTING 64

/*
 * The fields of a record used here, by depth: 0 is the record, 1 its msg
 * mapping (of "results" records), 2 that mapping's extra.
 */
enum {
    F_LVL,
    F_MSG,
    F_DEFINITION,
    F_CASE,
    F_RESULT,
    F_LEVEL,
    F_ERROR_TYPE,
    F_ERROR_MSG,
    F_TEST_CASE_ID,
    N_FIELDS
};

static const struct {
    guint depth;
    const char *key;
} fields[N_FIELDS] = {
    [F_LVL] = {0, "lvl"},
    [F_MSG] = {0, "msg"},
    [F_DEFINITION] = {1, "definition"},
    [F_CASE] = {1, "case"},
    [F_RESULT] = {1, "result"},
    [F_LEVEL] = {1, "level"},
    [F_ERROR_TYPE] = {1, "error_type"},
    [F_ERROR_MSG] = {1, "error_msg"},
    [F_TEST_CASE_ID] = {2, "test_case_id"},
};

typedef struct {
    GString *field[N_FIELDS]; /* scalars keep their length: may hold NULs */
} Record;

/*
 * Splits the input into lines.  Not GDataInputStream: its read_line() has
 * no cap, and a guest can write a line as long as it likes.
 */
typedef struct {
    LavaLog *log;
    GString *line;
    gboolean overlong; /* the current line passed the cap: skip it */
} LineReader;

static void lava_result_free(gpointer data)
{
    LavaResult *r = data;

    g_free(r->definition);
    g_free(r->case_name);
    g_free(r->test_case_id);
    g_free(r->result);
    g_free(r->level);
    g_free(r->error_type);
    g_free(r->error_msg);
    g_free(r);
}

void lava_log_free(LavaLog *log)
{
    if (!log) {
        return;
    }
    g_ptr_array_unref(log->results);
    g_string_free(log->console, TRUE);
    g_free(log);
}

/* Consumes the rest of a mapping or sequence whose start event was read
 * (libyaml reports an unclosed one as an error). */
static gboolean skip_collection(yaml_parser_t *parser)
{
    guint depth = 1;

    while (depth && depth <= MAX_NESTING) {
        yaml_event_t event;

        if (!yaml_parser_parse(parser, &event)) {
            return FALSE;
        }
        if (event.type == YAML_MAPPING_START_EVENT ||
            event.type == YAML_SEQUENCE_START_EVENT) {
            depth++;
        } else if (event.type == YAML_MAPPING_END_EVENT ||
                   event.type == YAML_SEQUENCE_END_EVENT) {
            depth--;
        }
        yaml_event_delete(&event);
    }
    return depth == 0;
}

static gboolean read_mapping(yaml_parser_t *parser, Record *rec, guint depth);

static gboolean read_value(yaml_parser_t *parser, Record *rec, guint depth,
                           const char *key, const yaml_event_t *value)
{
    switch (value->type) {
    case YAML_SCALAR_EVENT:
        for (guint f = 0; f < N_FIELDS; f++) {
            if (fields[f].depth == depth && g_str_equal(fields[f].key, key)) {
                if (rec->field[f]) {
                    g_string_free(rec->field[f], TRUE);
                }
                rec->field[f] =
                    g_string_new_len((const char *)value->data.scalar.value,
                                     value->data.scalar.length);
            }
        }
        return TRUE;
    case YAML_MAPPING_START_EVENT:
        if ((depth == 0 && g_str_equal(key, "msg")) ||
            (depth == 1 && g_str_equal(key, "extra"))) {
            return read_mapping(parser, rec, depth + 1);
        }
        return skip_collection(parser);
    case YAML_SEQUENCE_START_EVENT:
        return skip_collection(parser);
    default: /* an alias: PyYAML writes none for these records */
        return FALSE;
    }
}

/* Reads the pairs of a mapping whose start event was read. */
static gboolean read_mapping(yaml_parser_t *parser, Record *rec, guint depth)
{
    for (;;) {
        yaml_event_t key, value;
        gboolean ok;

        if (!yaml_parser_parse(parser, &key)) {
            return FALSE;
        }
        if (key.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&key);
            return TRUE;
        }
        if (key.type != YAML_SCALAR_EVENT ||
            !yaml_parser_parse(parser, &value)) {
            yaml_event_delete(&key);
            return FALSE;
        }
        ok = read_value(parser, rec, depth, (const char *)key.data.scalar.value,
                        &value);
        yaml_event_delete(&key);
        yaml_event_delete(&value);
        if (!ok) {
            return FALSE;
        }
    }
}

static gboolean expect_event(yaml_parser_t *parser, yaml_event_type_t type)
{
    yaml_event_t event;
    gboolean ok;

    if (!yaml_parser_parse(parser, &event)) {
        return FALSE;
    }
    ok = event.type == type;
    yaml_event_delete(&event);
    return ok;
}

/* Fills rec from a line that must be exactly one YAML document: a
 * mapping. */
static gboolean parse_record(const char *line, gsize len, Record *rec)
{
    yaml_parser_t parser;
    gboolean ok;

    if (!yaml_parser_initialize(&parser)) {
        g_error("libyaml: out of memory");
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)line, len);
    ok = expect_event(&parser, YAML_STREAM_START_EVENT) &&
         expect_event(&parser, YAML_DOCUMENT_START_EVENT) &&
         expect_event(&parser, YAML_MAPPING_START_EVENT) &&
         read_mapping(&parser, rec, 0) &&
         expect_event(&parser, YAML_DOCUMENT_END_EVENT) &&
         expect_event(&parser, YAML_STREAM_END_EVENT);
    yaml_parser_delete(&parser);
    return ok;
}

/*
 * LAVA's ShellLogger wrote each '"' of the console as '\"': dropping a
 * backslash right before a quote undoes exactly that (g_strcompress() would
 * also undo the console's own escapes).  NULs go so console->str is all of
 * the console.  Once a line does not fit, no later line goes in either: the
 * console stays a prefix of the real one.
 */
static void add_console_line(LavaLog *log, const GString *msg)
{
    if (log->console_truncated ||
        log->console->len + msg->len + 1 > LAVA_LOG_MAX_CONSOLE) {
        log->console_truncated = TRUE;
        return;
    }
    for (gsize i = 0; i < msg->len; i++) {
        char c = msg->str[i];

        if ((c == '\\' && i + 1 < msg->len && msg->str[i + 1] == '"') ||
            c == '\0') {
            continue;
        }
        g_string_append_c(log->console, c);
    }
    g_string_append_c(log->console, '\n');
}

static char *field_dup(const Record *rec, guint f)
{
    return rec->field[f] ? g_strdup(rec->field[f]->str) : NULL;
}

static void add_result(LavaLog *log, const Record *rec)
{
    LavaResult *r;
    gboolean is_job = g_str_equal(rec->field[F_DEFINITION]->str, "lava") &&
                      g_str_equal(rec->field[F_CASE]->str, "job");

    /* One lava/job record may pass the cap: the job's verdict must stay. */
    if (log->results->len >= LAVA_LOG_MAX_RESULTS &&
        !(is_job && log->results->len == LAVA_LOG_MAX_RESULTS)) {
        log->results_truncated = TRUE;
        return;
    }
    r = g_new0(LavaResult, 1);
    r->definition = field_dup(rec, F_DEFINITION);
    r->case_name = field_dup(rec, F_CASE);
    r->test_case_id = field_dup(rec, F_TEST_CASE_ID);
    r->result = field_dup(rec, F_RESULT);
    r->level = field_dup(rec, F_LEVEL);
    r->error_type = field_dup(rec, F_ERROR_TYPE);
    r->error_msg = field_dup(rec, F_ERROR_MSG);
    g_ptr_array_add(log->results, r);
    if (is_job) {
        log->job = r;
    }
}

/* A record is usable if it has a lvl, and for target and results the msg
 * those need. */
static gboolean add_record(LavaLog *log, const Record *rec)
{
    const char *lvl = rec->field[F_LVL] ? rec->field[F_LVL]->str : NULL;

    if (!lvl) {
        return FALSE;
    }
    if (g_str_equal(lvl, "target")) {
        if (!rec->field[F_MSG]) {
            return FALSE;
        }
        add_console_line(log, rec->field[F_MSG]);
    } else if (g_str_equal(lvl, "results")) {
        if (!rec->field[F_DEFINITION] || !rec->field[F_CASE] ||
            !rec->field[F_RESULT]) {
            return FALSE;
        }
        add_result(log, rec);
    }
    return TRUE;
}

static void parse_line(LavaLog *log, const char *line, gsize len)
{
    Record rec = {0};

    /* output.yaml: the records as a block sequence */
    if (len >= 2 && line[0] == '-' && line[1] == ' ') {
        line += 2;
        len -= 2;
    }
    if (parse_record(line, len, &rec) && add_record(log, &rec)) {
        log->records++;
    } else {
        log->skipped_lines++;
    }
    for (guint f = 0; f < N_FIELDS; f++) {
        if (rec.field[f]) {
            g_string_free(rec.field[f], TRUE);
        }
    }
}

static void line_reader_init(LineReader *r, LavaLog *log)
{
    r->log = log;
    r->line = g_string_new(NULL);
    r->overlong = FALSE;
}

static void line_reader_end_line(LineReader *r)
{
    if (r->overlong) {
        r->log->skipped_lines++;
    } else {
        parse_line(r->log, r->line->str, r->line->len);
    }
    g_string_truncate(r->line, 0);
    r->overlong = FALSE;
}

static void line_reader_feed(LineReader *r, const char *data, gsize len)
{
    while (len) {
        const char *nl = memchr(data, '\n', len);
        gsize n = nl ? (gsize)(nl - data) : len;

        if (!r->overlong && r->line->len + n <= LAVA_LOG_MAX_LINE) {
            g_string_append_len(r->line, data, n);
        } else {
            r->overlong = TRUE;
        }
        if (!nl) {
            return;
        }
        line_reader_end_line(r);
        data = nl + 1;
        len -= n + 1;
    }
}

/* The last line may lack its '\n'. */
static void line_reader_finish(LineReader *r)
{
    if (r->line->len || r->overlong) {
        line_reader_end_line(r);
    }
    g_string_free(r->line, TRUE);
}

static LavaLog *lava_log_new(void)
{
    LavaLog *log = g_new0(LavaLog, 1);

    log->results = g_ptr_array_new_with_free_func(lava_result_free);
    log->console = g_string_new(NULL);
    return log;
}

LavaLog *lava_log_parse(const char *text, gsize len)
{
    LavaLog *log = lava_log_new();
    LineReader r;

    line_reader_init(&r, log);
    line_reader_feed(&r, text, len);
    line_reader_finish(&r);
    return log;
}

LavaLog *lava_log_read(const char *path, GError **error)
{
    g_autoptr(GFile) file = g_file_new_for_path(path);
    g_autoptr(GFileInputStream) in = g_file_read(file, NULL, error);
    g_autoptr(LavaLog) log = NULL;
    g_autofree char *buf = NULL;
    LineReader r;
    gssize n;

    if (!in) {
        return NULL;
    }
    log = lava_log_new();
    buf = g_malloc(READ_CHUNK);
    line_reader_init(&r, log);
    while ((n = g_input_stream_read(G_INPUT_STREAM(in), buf, READ_CHUNK, NULL,
                                    error)) > 0) {
        line_reader_feed(&r, buf, n);
    }
    line_reader_finish(&r);
    if (n < 0) {
        g_prefix_error(error, "%s: ", path);
        return NULL;
    }
    return g_steal_pointer(&log);
}
