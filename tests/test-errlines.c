/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the error-handling line classifier (runner/errlines.h), on
 * small C snippets written like the kernel code it reads. */
#include <string.h>

#include "errlines.h"

/* The lines of text whose why is not 0, as "N:bits N:bits ...", bits
 * from errlines_describe(). */
static char *classify(const char *text)
{
    g_autoptr(ErrLines) e = errlines_classify(text);
    GString *s = g_string_new(NULL);

    for (guint l = 1; l <= e->n_lines; l++) {
        g_autofree char *d = NULL;

        if (!e->why[l]) {
            continue;
        }
        d = errlines_describe(e->why[l]);
        g_string_append_printf(s, "%s%u:%s", s->len ? " " : "", l, d);
    }
    return g_string_free(s, FALSE);
}

static void check(const char *text, const char *want)
{
    g_autofree char *got = classify(text);

    g_assert_cmpstr(got, ==, want);
}

/* if (err < 0), if (err), a call's result < 0: the body, not the if. */
static void test_error_tests(void)
{
    check("static int f(struct d *dev)\n" /* 1 */
          "{\n"
          "\tint err;\n"
          "\n"
          "\terr = usb_control_msg(dev);\n" /* 5 */
          "\tif (err < 0) {\n"
          "\t\tcleanup(dev);\n" /* 7 */
          "\t\treturn err;\n"   /* 8 */
          "\t}\n"
          "\tif (err)\n" /* 10 */
          "\t\tputs(dev);\n"
          "\tif (send(dev, 8) < 0)\n"
          "\t\tgoto out;\n" /* 13 */
          "\treturn err;\n"
          "out:\n"
          "\treturn 0;\n"
          "}\n",
          "7:branch 8:branch 11:branch 13:branch");
}

/* A sentinel below 0 is no error: only an error variable, a call or a
 * call's result. */
static void test_sentinel(void)
{
    check("void f(int last_zero)\n"
          "{\n"
          "\tif (last_zero < 0)\n"
          "\t\tdone = 1;\n"
          "}\n",
          "");
}

/* Reports and propagations count wherever they are, and make the body
 * of their if error handling. */
static void test_report_propagate(void)
{
    check("int f(struct d *dev, int len)\n" /* 1 */
          "{\n"
          "\tif (len > 65536)\n"
          "\t\treturn -E2BIG;\n" /* 4 */
          "\tif (bad(dev)) {\n"
          "\t\tundo(dev);\n" /* 6 */
          "\t\tdev_err(&dev->dev,\n"
          "\t\t\t\"failed: %d\\n\", len);\n" /* 8 */
          "\t}\n"
          "\tpr_info(\"all good\\n\");\n" /* 10 */
          "\tdev_dbg(dev, \"read failed\\n\");\n"
          "\tret = -EIO;\n" /* 12 */
          "\tint err = -EINVAL;\n"
          "\treturn 0;\n"
          "}\n",
          "4:branch+propagate 6:branch 7:branch+report 8:branch+report "
          "11:report 12:propagate");
}

/* if (!p) after p = kmalloc(): an allocation failure. */
static void test_alloc(void)
{
    check("void f(struct d *dev, int n)\n" /* 1 */
          "{\n"
          "\tu8 *buf = kmalloc(n, GFP_KERNEL);\n"
          "\n"
          "\tif (!buf)\n" /* 5 */
          "\t\treturn;\n"
          "\tdev->ids = kmalloc_array(n, 8, GFP_KERNEL);\n"
          "\tif (!dev->ids) {\n"
          "\t\tkfree(buf);\n" /* 9 */
          "\t\treturn;\n"
          "\t}\n"
          "\tif (!ready(dev))\n"
          "\t\treturn;\n" /* 13: not an allocation, not an error */
          "}\n",
          "6:branch+alloc 9:branch+alloc 10:branch+alloc");
}

/* Status bits, a failed CRC, a timeout, a retry count; OVERRIDE and
 * DEFAULT are no errors. */
static void test_bits_crc_timeout(void)
{
    check("void f(struct d *dev, u8 *rom)\n" /* 1 */
          "{\n"
          "\tif (err >= 16 && st->status & ST_EPOF)\n"
          "\t\treset(dev);\n" /* 4 */
          "\tif (status & A2XX_RBBM_INT_CNTL__RDERR_INT_MASK)\n"
          "\t\tack(dev);\n" /* 6 */
          "\tif (rom[8] != w1_calc_crc8(rom, 8))\n"
          "\t\tverdict = 0;\n" /* 8 */
          "\tif (time_after(jiffies, deadline))\n"
          "\t\tbreak_it(dev);\n" /* 10 */
          "\tif (retries > MAX)\n"
          "\t\tgive_up(dev);\n" /* 12 */
          "\tif (OVERRIDE(sl) != CONV_TIME_DEFAULT)\n"
          "\t\tuse(sl);\n"
          "\tif (!(st.status & ST_IDLE))\n"
          "\t\twait(dev);\n"
          "}\n",
          "4:branch 6:branch 8:branch 10:branch 12:branch");
}

/* The else of a success test is the error; a success branch is not. */
static void test_success_else(void)
{
    check("void f(u8 *rom)\n" /* 1 */
          "{\n"
          "\tif (rom[8] == w1_calc_crc8(rom, 8))\n"
          "\t\tverdict = 1;\n"
          "\telse\n"
          "\t\tverdict = 0;\n" /* 6 */
          "\tif (ret >= 0)\n"
          "\t\tcopy(rom);\n"
          "\telse {\n"
          "\t\tzero(rom);\n" /* 10 */
          "\t}\n"
          "}\n",
          "6:branch 10:branch");
}

/* int functions that return 0/-errno: a bare call is an error test; one
 * that returns 1 for "valid" is not. */
static void test_int_calls(void)
{
    check("static int send(struct d *dev)\n" /* 1 */
          "{\n"
          "\tint err = usb_msg(dev);\n"
          "\treturn err;\n"
          "}\n"
          "static int valid(u64 rn)\n" /* 6 */
          "{\n"
          "\tif (bad_crc(rn))\n"
          "\t\treturn 0;\n"
          "\treturn 1;\n"
          "}\n"
          "void g(struct d *dev, u64 rn)\n" /* 12 */
          "{\n"
          "\tif (send(dev))\n"
          "\t\tnote(dev);\n" /* 15 */
          "\tif (valid(rn))\n"
          "\t\tattach(rn);\n"
          "\tif (!send(dev))\n"
          "\t\tgo(dev);\n"
          "\telse\n"
          "\t\tstop(dev);\n" /* 21 */
          "}\n",
          "15:branch 21:branch");
}

/* After an error label that the success path does not fall into, until
 * a label that is not one; a label the success path reaches is not. */
static void test_labels(void)
{
    check("int probe(struct d *dev)\n" /* 1 */
          "{\n"
          "\tif (setup(dev) < 0)\n"
          "\t\tgoto err_free;\n" /* 4 */
          "\treturn 0;\n"
          "err_free:\n"
          "\tkfree(dev);\n" /* 7 */
          "err_out:\n"
          "\tput(dev);\n" /* 9 */
          "out:\n"
          "\treturn -ENODEV;\n" /* 11 */
          "}\n"
          "int g(struct d *dev)\n" /* 13 */
          "{\n"
          "\tint ret = 0;\n"
          "\tmutex_unlock(dev);\n"
          "error:\n"
          "\treturn ret;\n" /* 18: the success path falls in */
          "}\n",
          "4:branch+propagate 7:label 9:label 11:propagate");
}

/* Comments, strings, #if 0 and macros with bodies do not confuse it; a
 * line shared by a condition and its body does not count. */
static void test_lexing(void)
{
    check("/* if (err) { return -EIO; } */\n" /* 1 */
          "#define X(a) do { if (a) return -EIO; } while (0)\n"
          "#if 0\n"
          "static int dead(void) { if (err) return -EIO; }\n"
          "#else\n"
          "int live(int err)\n" /* 6 */
          "{\n"
          "\tconst char *s = \"if (err) {\";\n"
          "\tif (err) return -EIO; /* one line */\n" /* 9 */
          "\tlist_for_each_entry(p, head, e) {\n"
          "\t\tif (p->err)\n"
          "\t\t\tcontinue;\n"
          "\t\tif (err)\n"
          "\t\t\tbreak;\n" /* 14 */
          "\t}\n"
          "\tdo {\n"
          "\t\terr = poll(s);\n"
          "\t} while (err < 0 && ++n < 10);\n"
          "\tswitch (err) {\n"
          "\tcase 1:\n"
          "\t\tbreak;\n"
          "\tdefault:\n"
          "\t\treturn -EINVAL;\n" /* 23 */
          "\t}\n"
          "\treturn 0;\n"
          "}\n"
          "#endif\n",
          "14:branch 23:propagate");
}

/* The false negatives docs/coverage.md lists: tests the rules do not
 * know, labels of other names. And one false positive: any if whose body
 * warns. */
static void test_known_misses(void)
{
    check("void f(struct m *dev, int len)\n" /* 1 */
          "{\n"
          "\tif (len <= 0)\n"
          "\t\treturn;\n"
          "\tif (w1_reset_bus(dev))\n" /* 5: another file's function */
          "\t\tbad = 1;\n"
          "\tsl = w1_search_slave(dev);\n"
          "\tif (!sl)\n"
          "\t\tgoto out_free;\n" /* 9 */
          "\tif (count >= 100)\n"
          "\t\tstop(dev);\n"
          "\treturn;\n"
          "out_free:\n"
          "\tkfree(dev);\n" /* 14 */
          "\tif (mstatus & MH_INT_STAT)\n"
          "\t\tdev_warn(dev, \"MH\\n\");\n" /* 16 */
          "}\n",
          "16:branch+report");
}

/* The function a line belongs to. */
static void test_functions(void)
{
    g_autoptr(ErrLines) e = errlines_classify("static struct x y = {\n"
                                              "\t.a = 1,\n"
                                              "};\n"
                                              "static int\n"
                                              "f(int a)\n"
                                              "{\n"
                                              "\treturn a;\n"
                                              "}\n");

    g_assert_null(e->function[2]);
    g_assert_cmpstr(e->function[5], ==, "f");
    g_assert_cmpstr(e->function[7], ==, "f");
    g_assert_cmpstr(e->function[8], ==, "f");
}

/* Garbage in, an answer out: unbalanced brackets, a cut file. */
static void test_garbage(void)
{
    static const char *const texts[] = {
        "",
        "{",
        "}",
        "int f() { if (",
        "int f(void) { if (err) ",
        "int f(void) { \"",
        "int f(void) { /* ",
        "#if 0\n",
        "int f(void) { goto err_x; err_x: ",
        "f(a) { case 1: ",
    };

    for (guint i = 0; i < G_N_ELEMENTS(texts); i++) {
        g_autoptr(ErrLines) e = errlines_classify(texts[i]);

        g_assert_nonnull(e);
        g_assert_cmpuint(e->n_lines, >=, 1);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/errlines/error-tests", test_error_tests);
    g_test_add_func("/errlines/sentinel", test_sentinel);
    g_test_add_func("/errlines/report-propagate", test_report_propagate);
    g_test_add_func("/errlines/alloc", test_alloc);
    g_test_add_func("/errlines/bits-crc-timeout", test_bits_crc_timeout);
    g_test_add_func("/errlines/success-else", test_success_else);
    g_test_add_func("/errlines/int-calls", test_int_calls);
    g_test_add_func("/errlines/labels", test_labels);
    g_test_add_func("/errlines/lexing", test_lexing);
    g_test_add_func("/errlines/known-misses", test_known_misses);
    g_test_add_func("/errlines/functions", test_functions);
    g_test_add_func("/errlines/garbage", test_garbage);
    return g_test_run();
}
