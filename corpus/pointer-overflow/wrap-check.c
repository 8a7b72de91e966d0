/* ub-case
 * category: pointer-overflow
 * standard: C17 6.5.6p8
 * summary: the bounds check 'buf + len < buf' with a huge len; forming the pointer is already undefined
 * ub: yes
 * note: with wrapping address arithmetic the sum lands below buf and the check fires
 * ub-line: 15
 * twin: wrap-check.fixed.c
 */
#include <stdint.h>
#include <stdio.h>

static int too_long(const char *buf, size_t len)
{
    const char *end = buf + len;
    return end < buf;
}

int main(int argc, char **argv)
{
    (void)argv;
    static char buf[16];
    size_t len = SIZE_MAX - 14 + argc;
    puts(too_long(buf, len) ? "rejected" : "accepted");
    return 0;
}
