/* ub-case
 * category: restrict-violation
 * standard: C17 6.7.3.1p4
 * summary: the fixed twin of store-reload.c: no restrict: the pointers may be equal
 * ub: no
 * fixes: store-reload.c
 * fixed-line: 22, 14
 */
#include <stdio.h>

__attribute__((noinline)) static int update(int *a, int *b)
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
