/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the guest control channel's request/reply translation.
 */
#include <string.h>

#include <json-glib/json-glib.h>

#include "guestctl.h"

static void test_qom_set(void)
{
    g_autofree char *reply = NULL;
    g_autofree char *cmd = guestctl_request_to_qmp(
        "qom-set /machine/peripheral/t1 temperature -10125", &reply);
    g_autoptr(JsonNode) node = NULL;
    JsonObject *args;

    g_assert_nonnull(cmd);
    g_assert_null(reply);
    node = json_from_string(cmd, NULL);
    g_assert_cmpstr(
        json_object_get_string_member(json_node_get_object(node), "execute"),
        ==, "qom-set");
    args =
        json_object_get_object_member(json_node_get_object(node), "arguments");
    g_assert_cmpstr(json_object_get_string_member(args, "path"), ==,
                    "/machine/peripheral/t1");
    g_assert_cmpstr(json_object_get_string_member(args, "property"), ==,
                    "temperature");
    g_assert_cmpint(json_object_get_int_member(args, "value"), ==, -10125);
}

static void test_qom_set_json_values(void)
{
    g_autofree char *reply = NULL;
    g_autofree char *b =
        guestctl_request_to_qmp("qom-set /p present false", &reply);
    g_autofree char *s =
        guestctl_request_to_qmp("qom-set /p rom \"28-00\"", &reply);

    g_assert_nonnull(strstr(b, "\"value\":false"));
    g_assert_nonnull(strstr(s, "\"value\":\"28-00\""));
}

static void test_qom_get(void)
{
    g_autofree char *reply = NULL;
    g_autofree char *cmd =
        guestctl_request_to_qmp("qom-get /p temperature", &reply);

    g_assert_nonnull(cmd);
    g_assert_null(strstr(cmd, "value"));
    g_assert_nonnull(strstr(cmd, "\"execute\":\"qom-get\""));
}

static void test_rejects(void)
{
    const struct {
        const char *line, *reply_prefix;
    } cases[] = {
        {"reboot-host now", "error unknown operation 'reboot-host'"},
        {"", "error unknown operation ''"},
        {"quit", "error unknown operation 'quit'"},
        {"qom-set /p temperature", "error usage"},
        {"qom-get /p", "error usage"},
        {"qom-set /p temperature {not json",
         "error qom-set: the value is not JSON"},
    };

    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *reply = NULL;
        g_autofree char *cmd = guestctl_request_to_qmp(cases[i].line, &reply);

        g_assert_null(cmd);
        g_assert_nonnull(reply);
        g_assert_true(g_str_has_prefix(reply, cases[i].reply_prefix));
    }
}

static void test_replies(void)
{
    g_autofree char *ok =
        guestctl_qmp_to_reply("qom-set /p t 1", "{\"return\": {}}");
    g_autofree char *got =
        guestctl_qmp_to_reply("qom-get /p t", "{\"return\": 21500}");
    g_autofree char *err = guestctl_qmp_to_reply(
        "qom-set /p t 1", "{\"error\": {\"class\": \"GenericError\", "
                          "\"desc\": \"Property 'x.t' not found\"}}");
    g_autofree char *junk = guestctl_qmp_to_reply("qom-get /p t", "garbage");

    g_assert_cmpstr(ok, ==, "ok");
    g_assert_cmpstr(got, ==, "ok 21500");
    g_assert_cmpstr(err, ==, "error Property 'x.t' not found");
    g_assert_cmpstr(junk, ==, "error no answer from QEMU");
}

static void collect(const char *line, gpointer data)
{
    g_ptr_array_add(data, g_strdup(line ? line : "(too long)"));
}

static void feed(GuestCtlLines *lines, const char *text, GPtrArray *got)
{
    guestctl_lines_feed(lines, text, strlen(text), collect, got);
}

static void test_lines(void)
{
    g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func(g_free);
    GuestCtlLines *lines = guestctl_lines_new(8);
    char flood[1000];

    /* Lines split across reads are joined. */
    feed(lines, "qom-g", got);
    feed(lines, "et\nab\n\n", got);
    g_assert_cmpuint(got->len, ==, 3);
    g_assert_cmpstr(got->pdata[0], ==, "qom-get");
    g_assert_cmpstr(got->pdata[1], ==, "ab");
    g_assert_cmpstr(got->pdata[2], ==, "");

    /* A guest that never sends a newline: the buffer stays at max. */
    memset(flood, 'x', sizeof(flood));
    for (int i = 0; i < 100; i++) {
        guestctl_lines_feed(lines, flood, sizeof(flood), collect, got);
        g_assert_cmpuint(guestctl_lines_pending(lines), <=, 8);
    }
    g_assert_cmpuint(got->len, ==, 3);
    /* Its newline ends it with one "too long"; the next line is whole.
     * Exactly max bytes is still a line. */
    feed(lines, "\n12345678\n123456789\nok\n", got);
    g_assert_cmpuint(got->len, ==, 7);
    g_assert_cmpstr(got->pdata[3], ==, "(too long)");
    g_assert_cmpstr(got->pdata[4], ==, "12345678");
    g_assert_cmpstr(got->pdata[5], ==, "(too long)");
    g_assert_cmpstr(got->pdata[6], ==, "ok");
    g_assert_cmpuint(guestctl_lines_pending(lines), ==, 0);
    guestctl_lines_free(lines);
}

static void test_shutdown_reason(void)
{
    g_autofree char *reset = guestctl_event_shutdown_reason(
        "{\"timestamp\": {\"seconds\": 1, \"microseconds\": 2}, "
        "\"event\": \"SHUTDOWN\", \"data\": {\"guest\": true, "
        "\"reason\": \"guest-reset\"}}");
    g_autofree char *off = guestctl_event_shutdown_reason(
        "{\"event\": \"SHUTDOWN\", \"data\": {\"guest\": true, "
        "\"reason\": \"guest-shutdown\"}}");

    g_assert_cmpstr(reset, ==, "guest-reset");
    g_assert_cmpstr(off, ==, "guest-shutdown");
    g_assert_null(guestctl_event_shutdown_reason(
        "{\"event\": \"RESET\", \"data\": {\"reason\": \"guest-reset\"}}"));
    g_assert_null(guestctl_event_shutdown_reason("{\"return\": {}}"));
    g_assert_null(guestctl_event_shutdown_reason("{\"event\": \"SHUTDOWN\"}"));
    g_assert_null(guestctl_event_shutdown_reason("not json"));
    g_assert_null(guestctl_event_shutdown_reason("[1]"));
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/guestctl/qom-set", test_qom_set);
    g_test_add_func("/guestctl/qom-set-json-values", test_qom_set_json_values);
    g_test_add_func("/guestctl/qom-get", test_qom_get);
    g_test_add_func("/guestctl/rejects", test_rejects);
    g_test_add_func("/guestctl/replies", test_replies);
    g_test_add_func("/guestctl/lines", test_lines);
    g_test_add_func("/guestctl/shutdown-reason", test_shutdown_reason);
    return g_test_run();
}
