/* ub-case
 * category: unreachable-reached
 * standard: C23 7.21.1p2
 * summary: the fixed twin of after-check.c: indexes past the table return 'too big' instead of being declared unreachable
 * ub: no
 * fixes: after-check.c
 * fixed-line: 16
 */
#include <stdio.h>

static const char *const names[4] = {"zero", "one", "two", "three"};

__attribute__((noinline)) static const char *name(unsigned i)
{
    if (i >= 4)
        return "too big";
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
