/* ub-case
 * category: signed-integer-overflow
 * standard: C17 6.5p5
 * summary: the fixed twin of overflow-check.c: __builtin_add_overflow checks without overflowing
 * ub: no
 * fixes: overflow-check.c
 * fixed-line: 14, 15
 */
#include <limits.h>
#include <stdio.h>

static int overflows(int a)
{
    int next;
    return __builtin_add_overflow(a, 1, &next);
}

int main(int argc, char **argv)
{
    (void)argv;
    int a = INT_MAX - 1 + argc;
    printf("%d\n", overflows(a));
    return 0;
}
