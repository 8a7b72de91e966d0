/* ub-case
 * category: uninitialized-read
 * standard: C17 6.3.2.1p2
 * summary: the fixed twin of both-branches.c: x starts at 0
 * ub: no
 * fixes: both-branches.c
 * fixed-line: 17
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int x = 0;
    if (argc > 1)
        x = 1;
    if (x == 0)
        puts("zero");
    if (x != 0)
        puts("nonzero");
    return 0;
}
