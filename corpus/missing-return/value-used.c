/* ub-case
 * category: missing-return
 * standard: C17 6.9.1p12
 * summary: a non-void function falls off its end and the caller uses the result
 * ub: yes
 * note: unexploited, the result is whatever is left in the return register; either branch may print
 * ub-line: 21, 16
 * twin: value-used.fixed.c
 */
#include <stdio.h>

static int classify(int x)
{
    if (x > 1)
        return 10;
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
