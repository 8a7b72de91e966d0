/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: a 64-bit length stored at offset 1 of a malloc'd buffer is read through a uint64_t pointer; x86-64 loads it, 32-bit ARM's ldrd faults
 * ub: yes
 * note: the memcpy gives the bytes the effective type uint64_t, so only the alignment is wrong. x86-64, aarch64 and riscv64 (under qemu) load it; gcc's -O0 code for 32-bit ARM loads it with ldrd, which faults under qemu-arm (SIGBUS, which the handler prints; a Linux kernel on ARM hardware fixes an unaligned ldrd up by default)
 * ub-line: 36, 35
 * twin: length-field.fixed.c
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
    const uint64_t *field = (const uint64_t *)(buf + argc);
    printf("%llu\n", (unsigned long long)*field);
    free(buf);
    return 0;
}
