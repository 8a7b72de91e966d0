/* ub-case
 * category: signed-integer-overflow
 * standard: C17 6.5p5
 * summary: the fixed twin of loop.c: the counter is a long long and the loop stops past INT_MAX
 * ub: no
 * fixes: loop.c
 * fixed-line: 15
 */
#include <limits.h>
#include <stdio.h>

int main(void)
{
    int iterations = 0;
    for (long long i = INT_MAX - 2; i <= INT_MAX; i++)
        iterations++;
    printf("%d\n", iterations);
    return 0;
}
