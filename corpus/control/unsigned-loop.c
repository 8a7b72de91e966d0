/* ub-case
 * category: control
 * standard: C17 6.2.5p9
 * summary: the signed-integer-overflow/loop program with an unsigned counter, whose wraparound is defined
 * ub: no
 */
#include <limits.h>
#include <stdio.h>

int main(void)
{
    int iterations = 0;
    for (unsigned i = UINT_MAX - 2; i > 0; i++)
        iterations++;
    printf("%d\n", iterations);
    return 0;
}
