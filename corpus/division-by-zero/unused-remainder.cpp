/* ub-case
 * category: division-by-zero
 * standard: C++17 [expr.mul]/4
 * summary: a remainder by zero whose result is never used; the compiler may drop it
 * ub: yes
 * note: executed as written, the division traps (SIGFPE on x86-64); the handler prints that and exits 0; aarch64 and riscv64 do not trap on a division by zero, so the program goes on (unused-remainder.ARCH.output); libgcc's __aeabi_idiv0 of 32-bit ARM raises SIGFPE as x86-64 does
 * ub-line: 25
 * twin: unused-remainder.fixed.cpp
 */
#include <csignal>
#include <cstdio>
#include <unistd.h>

static void on_signal(int)
{
    static const char msg[] = "SIGFPE\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **)
{
    std::signal(SIGFPE, on_signal);
    int d = argc - 1;
    int r = 7 % d;
    (void)r;
    std::puts("after the remainder");
    return 0;
}
