/* ub-case
 * category: signed-integer-overflow
 * standard: C17 7.22.6.1p2
 * summary: abs(INT_MIN) is not representable; the compiler may assume abs never returns a negative value
 * ub: yes
 * ub-line: 17
 * twin: abs-int-min.fixed.c
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    int x = INT_MIN + argc - 1;
    int a = abs(x);
    if (a < 0)
        puts("negative");
    else
        puts("not negative");
    return 0;
}
