/* ub-case
 * category: infinite-loop
 * standard: C++17 [intro.progress]/1
 * summary: a side-effect-free loop that never ends; C++ forward progress lets the compiler assume it does
 * ub: yes
 * note: n stays odd forever, so an unexploited run spins until the 100 ms timer fires and prints 'timer'
 * ub-line: 28
 * twin: odd-counter-forward-progress.fixed.cpp
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
    unsigned n = static_cast<unsigned>(argc);
    while (n % 2 == 1)
        n += 2;
    std::puts("loop ended");
    return 0;
}
