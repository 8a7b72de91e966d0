/* ub-case
 * category: null-library-argument
 * standard: C17 7.24.1p2
 * summary: the fixed twin of memcpy-null.c: memcpy only for a non-null source
 * ub: no
 * fixes: memcpy-null.c
 * fixed-line: 17, 16
 */
#include <stdio.h>
#include <string.h>

static char dst[8];

static int copy(const char *src, size_t n)
{
    if (src != NULL)
        memcpy(dst, src, n);
    if (src == NULL)
        return -1;
    return (int)n;
}

int main(int argc, char **argv)
{
    (void)argv;
    const char *src = argc > 1 ? "abc" : NULL;
    printf("%d\n", copy(src, (size_t)(argc - 1)));
    return 0;
}
