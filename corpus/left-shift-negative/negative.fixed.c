/* ub-case
 * category: left-shift-negative
 * standard: C17 6.5.7p4
 * summary: the fixed twin of negative.c: a multiplication by 2
 * ub: no
 * fixes: negative.c
 * fixed-line: 15
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int x = -argc;
    int y = x * 2;
    printf("%d %s\n", y, y < 0 ? "negative" : "not negative");
    return 0;
}
