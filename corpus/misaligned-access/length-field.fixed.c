/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: the fixed twin of length-field.c: the length is copied out with memcpy
 * ub: no
 * fixes: length-field.c
 * fixed-line: 36, 35
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void on_signal(int sig)
{
    (void)sig;
    static const char msg[] = "SIGBUS\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGBUS, on_signal);
    unsigned char *buf = malloc(16);
    if (!buf) return 1;
    memset(buf, 0, 16);
    buf[0] = 'L';
    uint64_t length = 5000000000u * (unsigned)argc;
    memcpy(buf + argc, &length, sizeof length);
    uint64_t field;
    memcpy(&field, buf + argc, sizeof field);
    printf("%llu\n", (unsigned long long)field);
    free(buf);
    return 0;
}
