/* ub-case
 * category: shift-out-of-range
 * standard: C17 6.5.7p3
 * summary: a loop that shifts 1u left until the result is 0; the count reaches 32
 * ub: yes
 * note: on x86-64 1u << 32 is 1, so an unexploited run stops at the guard of 40 steps; on 32-bit ARM 1u << 32 is 0 (the count's bottom byte is used), so the loop stops after 32 steps (loop-bound.arm.output)
 * ub-line: 17
 * twin: loop-bound.fixed.c
 */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    unsigned steps = 0;
    for (unsigned s = argc - 1; s < 40; s++) {
        if ((1u << s) == 0)
            break;
        steps++;
    }
    printf("%u\n", steps);
    return 0;
}
