/* ub-case
 * category: left-shift-negative
 * standard: C17 6.5.7p4
 * summary: -1 << 1 shifts a negative value
 * ub: yes
 * ub-line: 15
 * twin: negative.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int x = -argc;
    int y = x << 1;
    printf("%d %s\n", y, y < 0 ? "negative" : "not negative");
    return 0;
}
