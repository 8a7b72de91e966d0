/* ub-case
 * category: pointer-overflow
 * standard: C17 6.5.6p8
 * summary: a length check written as 'p + len < p' with len = 2^63, then 'p + len > end'
 * ub: yes
 * o0-exploited: yes
 * note: with plain address arithmetic p + 2^63 does not wrap for a user-space p, so it prints 'too long'; gcc folds p + len < p to a signed test of len even at -O0 and prints 'wraps', clang from -O1
 * ub-line: 16
 * twin: signed-length-check.fixed.c
 */
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) static const char *check(const char *p, const char *end, size_t len)
{
    if (p + len < p)
        return "wraps";
    if (p + len > end)
        return "too long";
    return "fits";
}

int main(int argc, char **argv)
{
    (void)argv;
    static char buf[16];
    size_t len = (size_t)PTRDIFF_MAX + argc;
    puts(check(buf, buf + sizeof buf, len));
    return 0;
}
