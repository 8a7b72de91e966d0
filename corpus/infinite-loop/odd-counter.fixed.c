/* ub-case
 * category: infinite-loop
 * standard: C17 6.8.5p6
 * summary: the fixed twin of odd-counter.c: the counter is volatile, so the compiler may not assume the loop ends
 * ub: no
 * fixes: odd-counter.c
 * fixed-line: 30
 * std: gnu17
 */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <unistd.h>

static void on_timer(int sig)
{
    (void)sig;
    static const char msg[] = "timer\n";
    write(1, msg, sizeof msg - 1);
    _exit(0);
}

int main(int argc, char **argv)
{
    (void)argv;
    signal(SIGALRM, on_timer);
    struct itimerval t = {{0, 0}, {0, 100000}};
    setitimer(ITIMER_REAL, &t, NULL);
    volatile unsigned n = (unsigned)argc;
    while (n % 2 == 1)
        n += 2;
    puts("loop ended");
    return 0;
}
