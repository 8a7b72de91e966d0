/* ub-case
 * category: array-out-of-bounds
 * standard: C17 6.5.6p8
 * summary: the fixed twin of read-past-end.c: each element is loaded inside the loop, never d[16]
 * ub: no
 * fixes: read-past-end.c
 * fixed-line: 16, 17
 */
#include <stdio.h>

int d[16];

static int satd(void)
{
    int sum = 0, dd, k;
    for (k = 0; k < 16; k++) {
        dd = d[k];
        sum += (dd < 0 ? -dd : dd);
    }
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
