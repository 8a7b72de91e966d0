/* ub-case
 * category: infinite-loop
 * standard: C++17 [intro.progress]/1
 * summary: the fixed twin of while-true.cpp: the wait reads a volatile flag, so the endless loop makes progress
 * ub: no
 * fixes: while-true.cpp
 * fixed-line: 24
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
        for (volatile bool waiting = true; waiting;) {
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
