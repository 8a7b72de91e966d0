/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: the fixed twin of loop-bound.c: the loop stops before the count reaches 32
 * ub: no
 * fixes: loop-bound.c
 * fixed-line: 16
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    unsigned steps = 0;
    for (unsigned s = argc - 1; s < 40; s++) {
        if (s >= 32 || (1u << s) == 0)
            break;
        steps++;
    }
    printf("%u\n", steps);
    return 0;
}
