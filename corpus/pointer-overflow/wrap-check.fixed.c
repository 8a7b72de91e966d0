/* ub-case
 * category: pointer-overflow
 * standard: C17 6.5.6p8
 * summary: the fixed twin of wrap-check.c: the sum is done on the address as an unsigned integer
 * ub: no
 * fixes: wrap-check.c
 * fixed-line: 15
 */
#include <stdint.h>
#include <stdint.h>
#include <stdio.h>

static int too_long(const char *buf, size_t len)
{
    uintptr_t end = (uintptr_t)buf + len;
    return end < (uintptr_t)buf;
}

int main(int argc, char **argv)
{
    (void)argv;
    static char buf[16];
    size_t len = SIZE_MAX - 14 + argc;
    puts(too_long(buf, len) ? "rejected" : "accepted");
    return 0;
}
