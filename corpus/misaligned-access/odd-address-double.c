/* ub-case
 * category: misaligned-access
 * standard: C17 6.3.2.3p7
 * summary: a double is stored at an odd offset of a malloc'd buffer and read through a double pointer
 * ub: yes
 * note: the buffer has no declared type, so the memcpy gives those bytes the effective type double; only the alignment is wrong. x86-64, aarch64 and riscv64 (under qemu) load it; gcc's -O0 code for 32-bit ARM loads it with ldrd for printf, which faults under qemu-arm (SIGBUS, which the handler prints)
 * ub-line: 33, 32
 * twin: odd-address-double.fixed.c
 */
#include <signal.h>
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
    double v = 1.5 * argc;
    memcpy(buf + argc, &v, sizeof v);
    const double *p = (const double *)(buf + argc);
    printf("%.2f\n", *p);
    free(buf);
    return 0;
}
