/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the gcov port's bound (runner/gcovport.h). */
#include <string.h>

#include <gio/gunixsocketaddress.h>
#include <glib/gstdio.h>

#include "gcovport.h"

static void test_sink(void)
{
    GcovSink sink;
    char buf[100];

    memset(buf, 'x', sizeof(buf));
    gcovsink_init(&sink, 250);
    gcovsink_feed(&sink, buf, 100);
    gcovsink_feed(&sink, buf, 100);
    g_assert_false(gcovsink_cut(&sink));
    g_assert_cmpuint(sink.kept->len, ==, 200);
    /* past max: counted, not kept */
    gcovsink_feed(&sink, buf, 100);
    gcovsink_feed(&sink, buf, 100);
    g_assert_cmpuint(sink.kept->len, ==, 250);
    g_assert_cmpuint(sink.received, ==, 400);
    g_assert_true(gcovsink_cut(&sink));
    gcovsink_clear(&sink);
}

static void test_write(void)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp("test-gcovport-XXXXXX", &error);
    g_autofree char *path = g_build_filename(dir, "gcov.vm", NULL);
    g_autofree char *cut = g_strconcat(path, ".cut", NULL);
    GcovPort *port = gcovport_new(dir, 4);
    g_autofree char *data = NULL;
    gsize len;

    g_assert_no_error(error);
    /* a port that never started has ended, with nothing */
    g_assert_true(gcovport_ended(port));
    g_assert_true(gcovport_write(port, path, &error));
    g_assert_true(g_file_get_contents(path, &data, &len, NULL));
    g_assert_cmpuint(len, ==, 0);
    g_assert_false(g_file_test(cut, G_FILE_TEST_EXISTS));
    gcovport_free(port);
    g_unlink(path);
    g_rmdir(dir);
}

typedef struct {
    GMainLoop *loop;
    gboolean ended;
} EndState;

static void on_end(gpointer data)
{
    EndState *st = data;

    st->ended = TRUE;
    g_main_loop_quit(st->loop);
}

/* The whole host side on a real socket, QEMU's end played by a thread: a
 * guest that sends far more than the bound is read to its end (it never
 * blocks), and only the bound is kept, with the cut noted. */
static gpointer flood(gpointer data)
{
    GSocket *listener = data;
    g_autoptr(GSocket) conn = g_socket_accept(listener, NULL, NULL);
    char buf[65536];

    g_assert_nonnull(conn);
    memset(buf, 'g', sizeof(buf));
    for (int i = 0; i < 64; i++) { /* 4 MiB */
        gsize done = 0;

        while (done < sizeof(buf)) {
            gssize n =
                g_socket_send(conn, buf + done, sizeof(buf) - done, NULL, NULL);

            g_assert_cmpint(n, >, 0);
            done += n;
        }
    }
    g_socket_close(conn, NULL);
    return NULL;
}

static void test_flood(void)
{
    g_autoptr(GError) error = NULL;
    g_autofree char *dir = g_dir_make_tmp("test-gcovport-XXXXXX", &error);
    GcovPort *port = gcovport_new(dir, 1 << 20);
    g_autoptr(GSocketAddress) addr =
        g_unix_socket_address_new(gcovport_socket_path(port));
    g_autoptr(GSocket) listener =
        g_socket_new(G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, 0, &error);
    g_autofree char *path = g_build_filename(dir, "gcov.vm", NULL);
    g_autofree char *cut = g_strconcat(path, ".cut", NULL);
    EndState st = {.loop = g_main_loop_new(NULL, FALSE)};
    GThread *thread;
    GStatBuf sb;

    g_assert_no_error(error);
    g_assert_true(g_socket_bind(listener, addr, FALSE, &error));
    g_assert_true(g_socket_listen(listener, &error));
    thread = g_thread_new("flood", flood, listener);
    g_assert_true(gcovport_start(port, 5000, on_end, &st, &error));
    g_assert_no_error(error);
    g_main_loop_run(st.loop);
    g_thread_join(thread);
    g_assert_true(st.ended);
    g_assert_cmpuint(gcovport_received(port), ==, 4u << 20);
    g_assert_true(gcovport_write(port, path, &error));
    g_assert_cmpint(g_stat(path, &sb), ==, 0);
    g_assert_cmpint(sb.st_size, ==, 1 << 20);
    g_assert_true(g_file_test(cut, G_FILE_TEST_EXISTS));
    g_unlink(path);
    g_unlink(cut);
    g_unlink(gcovport_socket_path(port));
    gcovport_free(port);
    g_main_loop_unref(st.loop);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gcovport/sink", test_sink);
    g_test_add_func("/gcovport/write", test_write);
    g_test_add_func("/gcovport/flood", test_flood);
    return g_test_run();
}
