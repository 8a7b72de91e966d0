/* ub-case
 * category: signed-integer-overflow
 * standard: C17 6.5p5
 * summary: loop counter runs past INT_MAX; the compiler may assume i > 0 stays true
 * ub: yes
 * note: without exploitation i wraps to INT_MIN after 3 steps and the loop ends; gcc -O2 may loop forever, clang may drop the loop and the printf
 * ub-line: 16
 * twin: loop.fixed.c
 */
#include <limits.h>
#include <stdio.h>

int main(void)
{
    int iterations = 0;
    for (int i = INT_MAX - 2; i > 0; i++)
        iterations++;
    printf("%d\n", iterations);
    return 0;
}
