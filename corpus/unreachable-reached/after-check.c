/* ub-case
 * category: unreachable-reached
 * standard: C23 7.21.1p2
 * summary: __builtin_unreachable() after a range check that fails; the compiler may drop the check
 * ub: yes
 * note: GCC documents __builtin_unreachable as undefined when reached, like C23 unreachable(); an unexploited run continues after it
 * ub-line: 17
 * twin: after-check.fixed.c
 */
#include <stdio.h>

static const char *const names[4] = {"zero", "one", "two", "three"};

__attribute__((noinline)) static const char *name(unsigned i)
{
    if (i >= 2)
        __builtin_unreachable();
    if (i == 1)
        return "one";
    if (i < 4)
        return names[i];
    return "too big";
}

int main(int argc, char **argv)
{
    (void)argv;
    puts(name((unsigned)(argc + 1)));
    return 0;
}
