/* ub-case
 * category: array-out-of-bounds
 * standard: C17 6.5.6p8
 * summary: the fixed twin of inside-struct.c: the search stops at the last element of table
 * ub: no
 * fixes: inside-struct.c
 * fixed-line: 21
 */
#include <stdio.h>

struct record {
    int table[4];
    int after;
};

static struct record r = {{1, 2, 3, 4}, 5};

static int contains(int v)
{
    for (int i = 0; i < 4; i++)
        if (r.table[i] == v)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d %d\n", contains(5 * argc), contains(6 * argc));
    return 0;
}
