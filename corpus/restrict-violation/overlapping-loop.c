/* ub-case
 * category: restrict-violation
 * standard: C17 6.7.3.1p4
 * summary: a loop a[i] = b[i] + 1 with restrict parameters is called with b one element behind a
 * ub: yes
 * note: run in order, each element sees the value just written before it, giving 1 2 3 ... 16
 * ub-line: 22, 15
 * twin: overlapping-loop.fixed.c
 */
#include <stdio.h>

__attribute__((noinline)) static void add_one(int *restrict a, const int *restrict b, int n)
{
    for (int i = 0; i < n; i++)
        a[i] = b[i] + 1;
}

int main(int argc, char **argv)
{
    (void)argv;
    int buf[17] = {0};
    add_one(buf + 1, buf, 15 + argc);
    for (int i = 1; i < 17; i++)
        printf("%d ", buf[i]);
    printf("\n");
    return 0;
}
