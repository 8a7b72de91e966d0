/* ub-case
 * category: infinite-loop
 * standard: C++17 [intro.progress]/1
 * summary: while (true) {} in C++: unlike C, forward progress covers loops with constant conditions too
 * ub: yes
 * note: an unexploited run spins until the 100 ms timer fires and prints 'timer'; the C version is control/while-one
 * ub-line: 25
 * twin: while-true.fixed.cpp
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

__attribute__((noinline)) static void wait_forever(int argc)
{
    if (argc == 1)
        while (true) {
        }
}

int main(int argc, char **)
{
    std::signal(SIGALRM, on_timer);
    itimerval t = {{0, 0}, {0, 100000}};
    setitimer(ITIMER_REAL, &t, nullptr);
    wait_forever(argc);
    std::puts("not waiting");
    return 0;
}
