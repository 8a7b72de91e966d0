/* ub-case
 * category: restrict-violation
 * standard: C17 6.7.3.1p4
 * summary: two restrict pointers to the same int are both written and one is read back
 * ub: yes
 * ub-line: 22, 14
 * twin: store-reload.fixed.c
 */
#include <stdio.h>

__attribute__((noinline)) static int update(int *restrict a, int *restrict b)
{
    *a = 1;
    *b = 2;
    return *a;
}

int main(int argc, char **argv)
{
    (void)argv;
    int x = argc;
    printf("%d\n", update(&x, &x));
    return 0;
}
