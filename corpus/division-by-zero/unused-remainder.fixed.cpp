/* ub-case
 * category: division-by-zero
 * standard: C++17 [expr.mul]/4
 * summary: the fixed twin of unused-remainder.cpp: the remainder is taken only for a non-zero divisor
 * ub: no
 * fixes: unused-remainder.cpp
 * fixed-line: 24
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
    int r = d != 0 ? 7 % d : 0;
    (void)r;
    std::puts("after the remainder");
    return 0;
}
