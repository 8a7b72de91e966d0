/* ub-case
 * category: strict-aliasing
 * standard: C17 6.5p7
 * summary: the fixed twin of long-long-long.c: the long long's bytes are copied in with memcpy
 * ub: no
 * fixes: long-long-long.c
 * fixed-line: 16, 15
 */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static long update(long *a, long long *b)
{
    *a = 10;
    long long twenty = 20;
    memcpy(b, &twenty, sizeof twenty);
    return *a;
}

int main(int argc, char **argv)
{
    (void)argv;
    long v = argc;
    printf("%ld\n", update(&v, (long long *)&v));
    return 0;
}
