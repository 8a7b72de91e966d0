/* ub-case
 * category: infinite-loop
 * standard: C++17 [intro.progress]/1
 * summary: the fixed twin of odd-counter-forward-progress.cpp: the counter is volatile, so the endless loop makes progress
 * ub: no
 * fixes: odd-counter-forward-progress.cpp
 * fixed-line: 27
 */
#include <csignal>
#include <cstdio>
#include <sys/time.h>
#include <unistd.h>

static void on_timer(int)
{
    static const char msg[] = "timer\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **)
{
    std::signal(SIGALRM, on_timer);
    itimerval t = {{0, 0}, {0, 100000}};
    setitimer(ITIMER_REAL, &t, nullptr);
    volatile unsigned n = static_cast<unsigned>(argc);
    while (n % 2 == 1)
        n += 2;
    std::puts("loop ended");
    return 0;
}
