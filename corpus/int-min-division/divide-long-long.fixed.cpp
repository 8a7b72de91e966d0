/* ub-case
 * category: int-min-division
 * standard: C++17 [expr.mul]/4
 * summary: the fixed twin of divide-long-long.cpp: LLONG_MIN / -1 is given its wrapped value, the rest divided
 * ub: no
 * fixes: divide-long-long.cpp
 * fixed-line: 25
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
    if (n == LLONG_MIN && d == -1)
        return LLONG_MIN;
    return n / d;
}

int main(int argc, char **)
{
    std::signal(SIGFPE, on_signal);
    long long q = quotient(LLONG_MIN + argc - 1, -argc);
    std::printf("%lld\n", q);
    return 0;
}
