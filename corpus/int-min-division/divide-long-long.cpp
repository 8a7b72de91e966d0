/* ub-case
 * category: int-min-division
 * standard: C++17 [expr.mul]/4
 * summary: LLONG_MIN / -1 in a helper; x86-64 idiv traps, a negation would wrap
 * ub: yes
 * note: executed as written, idiv traps (SIGFPE); the handler prints that and exits 0; aarch64's sdiv and riscv64's div do not trap, nor does libgcc's __aeabi_ldivmod of 32-bit ARM: the quotient wraps to LLONG_MIN there (divide-long-long.ARCH.output)
 * ub-line: 24
 * twin: divide-long-long.fixed.cpp
 */
#include <climits>
#include <csignal>
#include <cstdio>
#include <unistd.h>

static void on_signal(int)
{
    static const char msg[] = "SIGFPE\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

static long long quotient(long long n, long long d)
{
    return n / d;
}

int main(int argc, char **)
{
    std::signal(SIGFPE, on_signal);
    long long q = quotient(LLONG_MIN + argc - 1, -argc);
    std::printf("%lld\n", q);
    return 0;
}
