/* ub-case
 * category: unsequenced-modification
 * standard: C17 6.5p2
 * summary: i++ + i++ modifies i twice without a sequence point
 * ub: yes
 * note: evaluating the two increments one after the other gives 1 + 2 = 3 with i = 3; reading both before either store gives 2
 * ub-line: 16
 * twin: two-increments.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int i = argc;
    int sum = i++ + i++;
    printf("%d %d\n", sum, i);
    return 0;
}
