/* ub-case
 * category: const-object-modification
 * standard: C17 6.7.3p6
 * summary: a const local is modified through a pointer with the const cast away
 * ub: yes
 * o0-exploited: yes
 * note: unexploited, the store changes the object and both reads see 2; clang uses the initial value 1 for the plain read even at -O0, gcc from -O1
 * ub-line: 15
 * twin: local-const.fixed.c
 */
#include <stdio.h>

__attribute__((noinline)) static void set(int *p, int v)
{
    *p = v;
}

int main(int argc, char **argv)
{
    (void)argv;
    const int limit = 1;
    set((int *)&limit, 1 + argc);
    printf("%d %d\n", limit, *(volatile const int *)&limit);
    return 0;
}
