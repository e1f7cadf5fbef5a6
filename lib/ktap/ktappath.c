/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ktappath.c - finding tests by their slash-joined path.
 *
 * Crash reports name the test they hit by path ("msm/msm_ioctl/#317").  A
 * console can hold thousands of tests and KTAP_LIMIT_CRASH_REPORTS reports,
 * so a lookup must not scan every sibling: KtapIndex hashes each test by
 * (parent, name) and (parent, number), built once per tree.
 */
#include "ktap.h"

#include <string.h>

#include "ktaplimits.h"

typedef struct {
    const KtapTest *parent;
    const char *name; /* NULL: a number key, the number in len */
    gsize len;
    guint hash;
} IndexKey;

struct KtapIndex {
    GHashTable *children; /* IndexKey * -> const KtapTest * */
    IndexKey *keys;       /* two per test */
    gsize n_keys;
};

/* djb2, one byte at a time, so that every prefix of a path has its hash */
#define HASH_SEED 5381u
static inline guint hash_step(guint h, char c)
{
    return h * 33u + (guchar)c;
}

static guint key_hash(gconstpointer data)
{
    const IndexKey *k = data;

    return k->hash ^ (g_direct_hash(k->parent) * 31u);
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
    const IndexKey *x = a, *y = b;

    if (x->parent != y->parent || x->len != y->len ||
        (x->name == NULL) != (y->name == NULL)) {
        return FALSE;
    }
    return x->name == NULL || memcmp(x->name, y->name, x->len) == 0;
}

static gsize count_tests(const KtapTest *t)
{
    gsize n = t->subtests->len;

    for (guint i = 0; i < t->subtests->len; i++) {
        n += count_tests(g_ptr_array_index(t->subtests, i));
    }
    return n;
}

static void index_add(KtapIndex *index, const KtapTest *t)
{
    for (guint i = 0; i < t->subtests->len; i++) {
        const KtapTest *c = g_ptr_array_index(t->subtests, i);
        IndexKey *by_name = &index->keys[index->n_keys++];
        IndexKey *by_number = &index->keys[index->n_keys++];
        guint h = HASH_SEED;

        for (const char *q = c->name; *q; q++) {
            h = hash_step(h, *q);
        }
        *by_name = (IndexKey){t, c->name, strlen(c->name), h};
        /* the first of equal names, the latest of equal numbers */
        if (!g_hash_table_contains(index->children, by_name)) {
            g_hash_table_insert(index->children, by_name, (gpointer)c);
        }
        *by_number =
            (IndexKey){t, NULL, (gsize)MAX(c->number, 0), (guint)c->number};
        g_hash_table_insert(index->children, by_number, (gpointer)c);
        index_add(index, c);
    }
}

KtapIndex *ktap_index_new(const KtapTest *root)
{
    KtapIndex *index = g_new0(KtapIndex, 1);

    index->children = g_hash_table_new(key_hash, key_equal);
    index->keys = g_new(IndexKey, 2 * count_tests(root) + 1);
    index_add(index, root);
    return index;
}

void ktap_index_free(KtapIndex *index)
{
    if (index) {
        g_hash_table_unref(index->children);
        g_free(index->keys);
        g_free(index);
    }
}

const KtapTest *ktap_index_child(const KtapIndex *index, const KtapTest *parent,
                                 const char *path, const char **rest)
{
    const KtapTest *best = NULL;
    gsize best_len = 0;
    guint h = HASH_SEED;

    /* names may hold '/': the longest name that ends at one; no name is
     * longer than a path may be */
    for (gsize j = 0; j <= KTAP_LIMIT_PATH; j++) {
        if (path[j] == '/' || path[j] == '\0') {
            IndexKey key = {parent, path, j, h};
            const KtapTest *c = g_hash_table_lookup(index->children, &key);

            if (c) {
                best = c;
                best_len = j;
            }
        }
        if (path[j] == '\0') {
            break;
        }
        h = hash_step(h, path[j]);
    }
    if (best == NULL && path[0] == '#') {
        char *end;
        guint64 number = g_ascii_strtoull(path + 1, &end, 10);

        if (end != path + 1 && (*end == '\0' || *end == '/') &&
            number <= G_MAXINT) {
            IndexKey key = {parent, NULL, (gsize)number, (guint)number};

            best = g_hash_table_lookup(index->children, &key);
            best_len = (gsize)(end - path);
        }
    }
    if (best && rest) {
        *rest = path + best_len;
        if (**rest == '/') {
            (*rest)++;
        }
    }
    return best;
}

const KtapTest *ktap_index_find(const KtapIndex *index, const KtapTest *root,
                                const char *path)
{
    const KtapTest *t = root;

    while (t && *path) {
        t = ktap_index_child(index, t, path, &path);
    }
    return t;
}

char *ktap_index_resolve_path(const KtapIndex *index, const KtapTest *root,
                              const char *path)
{
    const char *last = path ? strrchr(path, '/') : NULL;
    const char *num = last ? last + 1 : path;
    g_autofree char *parent_path = NULL;
    const KtapTest *parent;
    char *end;
    long n;

    if (path == NULL || num[0] != '#') {
        return g_strdup(path);
    }
    n = strtol(num + 1, &end, 10);
    if (*end != '\0' || n <= 0) {
        return g_strdup(path);
    }
    parent_path = last ? g_strndup(path, last - path) : g_strdup("");
    parent = ktap_index_find(index, root, parent_path);
    if (parent == NULL || (guint)n > parent->subtests->len) {
        return g_strdup(path);
    }
    const KtapTest *t = g_ptr_array_index(parent->subtests, n - 1);
    if (t->number != n || t->name[0] == '#') {
        return g_strdup(path);
    }
    return *parent_path ? g_strdup_printf("%s/%s", parent_path, t->name)
                        : g_strdup(t->name);
}

char *ktap_resolve_path(const KtapTest *root, const char *path)
{
    g_autoptr(KtapIndex) index = NULL;

    if (path == NULL) {
        return NULL;
    }
    index = ktap_index_new(root);
    return ktap_index_resolve_path(index, root, path);
}
