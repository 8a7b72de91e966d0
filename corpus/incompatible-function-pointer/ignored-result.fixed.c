/* ub-case
 * category: incompatible-function-pointer
 * standard: C17 6.3.2.3p8
 * summary: the fixed twin of ignored-result.c: the pointer has the function's own type
 * ub: no
 * fixes: ignored-result.c
 * fixed-line: 23, 24
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
    int (*fp)(int) = bump;
    fp(argc);
    fp(argc);
    printf("%d\n", count);
    return 0;
}
