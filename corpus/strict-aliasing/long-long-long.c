/* ub-case
 * category: strict-aliasing
 * standard: C17 6.5p7
 * summary: long and long long have the same size on x86-64 but are different types that may not alias
 * ub: yes
 * ub-line: 14
 * twin: long-long-long.fixed.c
 */
#include <stdio.h>

__attribute__((noinline)) static long update(long *a, long long *b)
{
    *a = 10;
    *b = 20;
    return *a;
}

int main(int argc, char **argv)
{
    (void)argv;
    long v = argc;
    printf("%ld\n", update(&v, (long long *)&v));
    return 0;
}
