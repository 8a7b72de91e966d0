/* ub-case
 * category: const-object-modification
 * standard: C17 6.7.3p6
 * summary: the fixed twin of local-const.c: the local is not const
 * ub: no
 * fixes: local-const.c
 * fixed-line: 13
 */
#include <stdio.h>

__attribute__((noinline)) static void set(int *p, int v)
{
    *p = v;
}

int main(int argc, char **argv)
{
    (void)argv;
    int limit = 1;
    set((int *)&limit, 1 + argc);
    printf("%d %d\n", limit, *(volatile const int *)&limit);
    return 0;
}
