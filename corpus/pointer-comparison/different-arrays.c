/* ub-case
 * category: pointer-comparison
 * standard: C17 6.5.8p5
 * summary: relational comparison of pointers into two different arrays, both ways round
 * ub: yes
 * note: comparing addresses prints '1 0' or '0 1' depending on the layout; folding both to false prints '0 0'
 * ub-line: 14
 * twin: different-arrays.fixed.c
 */
#include <stdio.h>

__attribute__((noinline)) static int below(const int *p, const int *q)
{
    return p < q;
}

int main(int argc, char **argv)
{
    (void)argv;
    int a[2] = {argc, 0};
    int b[2] = {argc, 0};
    printf("%d %d\n", below(a, b), below(b, a));
    return 0;
}
