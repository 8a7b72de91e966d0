/* ub-case
 * category: strict-aliasing
 * standard: C17 6.5p7
 * summary: the fixed twin of int-float.c: the float's bytes are copied in with memcpy
 * ub: no
 * fixes: int-float.c
 * fixed-line: 16, 15
 */
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int store_and_reload(int *i, float *f)
{
    *i = 1;
    float zero = 0.0f;
    memcpy(f, &zero, sizeof zero);
    return *i;
}

int main(int argc, char **argv)
{
    (void)argv;
    int x = argc;
    printf("%d\n", store_and_reload(&x, (float *)&x));
    return 0;
}
