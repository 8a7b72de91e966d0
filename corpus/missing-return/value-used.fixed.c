/* ub-case
 * category: missing-return
 * standard: C17 6.9.1p12
 * summary: the fixed twin of value-used.c: a return of 0 at the end
 * ub: no
 * fixes: value-used.c
 * fixed-line: 21, 16, 15
 */
#include <stdio.h>

static int classify(int x)
{
    if (x > 1)
        return 10;
    return 0;
}

int main(int argc, char **argv)
{
    (void)argv;
    if (classify(argc) == 10)
        puts("ten");
    else
        puts("not ten");
    return 0;
}
