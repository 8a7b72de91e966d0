/* ub-case
 * category: pointer-comparison
 * standard: C17 6.5.8p5
 * summary: the fixed twin of different-arrays.c: the addresses are compared as integers
 * ub: no
 * fixes: different-arrays.c
 * fixed-line: 14
 */
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) static int below(const int *p, const int *q)
{
    return (uintptr_t)p < (uintptr_t)q;
}

int main(int argc, char **argv)
{
    (void)argv;
    int a[2] = {argc, 0};
    int b[2] = {argc, 0};
    printf("%d %d\n", below(a, b), below(b, a));
    return 0;
}
