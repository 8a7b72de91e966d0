/* ub-case
 * category: array-out-of-bounds
 * standard: C17 6.5.6p8
 * summary: a loop that loads d[16] of int d[16] after its last iteration (the SPEC 2006 SATD pattern)
 * ub: yes
 * note: the value read past the end is discarded, so an unexploited run prints the plain sum
 * ub-line: 17
 * twin: read-past-end.fixed.c
 */
#include <stdio.h>

int d[16];

static int satd(void)
{
    int sum = 0, dd, k;
    for (dd = d[k = 0]; k < 16; dd = d[++k])
        sum += (dd < 0 ? -dd : dd);
    return sum;
}

int main(int argc, char **argv)
{
    (void)argv;
    for (int i = 0; i < 16; i++)
        d[i] = (i % 2 ? -i : i) * argc;
    printf("%d\n", satd());
    return 0;
}
