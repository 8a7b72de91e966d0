/* ub-case
 * category: signed-integer-overflow
 * standard: C17 7.22.6.1p2
 * summary: the fixed twin of abs-int-min.c: llabs in long long, which holds -INT_MIN
 * ub: no
 * fixes: abs-int-min.c
 * fixed-line: 17
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    int x = INT_MIN + argc - 1;
    long long a = llabs((long long)x);
    if (a < 0)
        puts("negative");
    else
        puts("not negative");
    return 0;
}
