/* ub-case
 * category: signed-integer-overflow
 * standard: C17 6.5p5
 * summary: an after-the-fact overflow check 'a + 1 < a' that the compiler may fold to false
 * ub: yes
 * ub-line: 14
 * twin: overflow-check.fixed.c
 */
#include <limits.h>
#include <stdio.h>

static int overflows(int a)
{
    int next = a + 1;
    return next < a;
}

int main(int argc, char **argv)
{
    (void)argv;
    int a = INT_MAX - 1 + argc;
    printf("%d\n", overflows(a));
    return 0;
}
