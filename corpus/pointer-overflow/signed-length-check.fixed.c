/* ub-case
 * category: pointer-overflow
 * standard: C17 6.5.6p8
 * summary: the fixed twin of signed-length-check.c: the length is compared with the room left, never added to the pointer
 * ub: no
 * fixes: signed-length-check.c
 * fixed-line: 14
 */
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) static const char *check(const char *p, const char *end, size_t len)
{
    if (len > (size_t)(end - p))
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
