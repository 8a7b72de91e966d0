/* ub-case
 * category: incompatible-function-pointer
 * standard: C17 6.3.2.3p8
 * summary: a function returning int is called through a pointer to a function returning void
 * ub: yes
 * ub-line: 23, 24
 * twin: ignored-result.fixed.c
 */
#include <stdio.h>

static int count = 0;

static int bump(int by)
{
    count += by;
    return count;
}

int main(int argc, char **argv)
{
    (void)argv;
    void (*fp)(int) = (void (*)(int))bump;
    fp(argc);
    fp(argc);
    printf("%d\n", count);
    return 0;
}
