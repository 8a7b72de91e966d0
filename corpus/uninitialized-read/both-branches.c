/* ub-case
 * category: uninitialized-read
 * standard: C17 6.3.2.1p2
 * summary: an uninitialised local whose address is never taken is tested twice, as x == 0 and as x != 0
 * ub: yes
 * note: unexploited, the variable holds some fixed value, so exactly one line is printed
 * ub-line: 18
 * twin: both-branches.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int x;
    if (argc > 1)
        x = 1;
    if (x == 0)
        puts("zero");
    if (x != 0)
        puts("nonzero");
    return 0;
}
